package dev.canopy.gridconfig.internal.hosts;

import dev.canopy.gridconfig.model.GridModel;
import java.util.Objects;

/**
 * A host a launcher starts processes on, with how many ({@code slots}), as a hostfile or Slurm lists it.
 *
 * @param line the hostfile line that first lists it, from 1; 0 when it did not come from a file (Slurm)
 */
public record LaunchHost(String name, int slots, long line) {

    public LaunchHost {
        Objects.requireNonNull(name, "name");
        HostNames.problem(name).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        if (slots < 1 || slots > GridModel.MAX_PROCESSES) {
            throw new IllegalArgumentException("host " + name + " needs 1 to " + GridModel.MAX_PROCESSES + " slots, got " + slots);
        }
        if (line < 0) {
            throw new IllegalArgumentException("line must be >= 0, got " + line);
        }
    }

    LaunchHost withMoreSlots(int more) {
        return new LaunchHost(name, slots + more, line);
    }
}
