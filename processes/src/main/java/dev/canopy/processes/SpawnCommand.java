package dev.canopy.processes;

import java.util.List;
import java.util.Objects;

/**
 * One program of a spawn: {@code count} processes running {@code program arguments}, placed by {@code placement}.
 * A spawn of several commands ({@code spawnMultiple}) starts them all as one job.
 */
public record SpawnCommand(String program, List<String> arguments, int count, Placement placement) {

    public SpawnCommand {
        Objects.requireNonNull(program, "program");
        arguments = List.copyOf(arguments);
        Objects.requireNonNull(placement, "placement");
        if (program.isBlank()) {
            throw new IllegalArgumentException("a spawn names the program class to run, got a blank name");
        }
        if (count < 1 || count > AgentZnodes.MAX_CHILDREN) {
            throw new IllegalArgumentException("spawn 1 to " + AgentZnodes.MAX_CHILDREN + " processes of " + program
                    + ", got " + count);
        }
    }
}
