package dev.canopy.processes;

import dev.canopy.core.node.JobId;
import dev.canopy.gridconfig.model.GridModel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One spawn as the parent root asks for it: start the processes of {@code commands} as one new job
 * {@code childJob} on the parent's grid, each command's processes placed by its placement among the pool's agents.
 *
 * @param latency from the parent root's site to each site, for automatic placement
 * @param timeout how long every child has to start and join its job before the spawn fails (default 30 s)
 * @param emulateWan whether the children emulate the grid's WAN among themselves (as {@code canopy launch} does)
 * @param properties system properties every child gets before its program runs ({@link ChildBinding#properties()})
 */
public record SpawnOrder(JobId childJob, List<SpawnCommand> commands, GridModel parentGrid, SiteLatency latency,
        Duration timeout, boolean emulateWan, Map<String, String> properties) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    public SpawnOrder {
        Objects.requireNonNull(childJob, "childJob");
        commands = List.copyOf(commands);
        Objects.requireNonNull(parentGrid, "parentGrid");
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(timeout, "timeout");
        properties = ChildBinding.checkProperties(properties);
        if (commands.isEmpty()) {
            throw new IllegalArgumentException("a spawn needs at least one command");
        }
        if (count(commands) > AgentZnodes.MAX_CHILDREN) {
            throw new IllegalArgumentException("a spawn starts at most " + AgentZnodes.MAX_CHILDREN + " processes, got "
                    + count(commands));
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the spawn timeout must be positive, got " + timeout);
        }
    }

    /** One command, no properties, the default timeout. */
    public static SpawnOrder of(JobId childJob, SpawnCommand command, GridModel parentGrid, SiteLatency latency,
            boolean emulateWan) {
        return new SpawnOrder(childJob, List.of(command), parentGrid, latency, DEFAULT_TIMEOUT, emulateWan, Map.of());
    }

    public int count() {
        return count(commands);
    }

    public SpawnOrder withTimeout(Duration newTimeout) {
        return new SpawnOrder(childJob, commands, parentGrid, latency, newTimeout, emulateWan, properties);
    }

    public SpawnOrder withProperties(Map<String, String> newProperties) {
        return new SpawnOrder(childJob, commands, parentGrid, latency, timeout, emulateWan, newProperties);
    }

    /** The programs, for messages. */
    String describe() {
        return commands.stream().map(command -> command.count() + " x " + command.program()).toList().toString();
    }

    private static int count(List<SpawnCommand> commands) {
        return commands.stream().mapToInt(SpawnCommand::count).sum();
    }
}
