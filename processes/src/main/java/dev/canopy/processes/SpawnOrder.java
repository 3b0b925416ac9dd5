package dev.canopy.processes;

import dev.canopy.core.node.JobId;
import dev.canopy.gridconfig.model.GridModel;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One spawn as the parent root asks for it: start {@code count} processes of a new job {@code childJob}, each
 * running {@code program arguments}, placed by {@code placement} among the pool's agents, on the parent's grid.
 *
 * @param latency from the parent root's site to each site, for automatic placement
 * @param timeout how long every child has to start and join its job before the spawn fails (default 30 s)
 * @param emulateWan whether the children emulate the grid's WAN among themselves (as {@code canopy launch} does)
 */
public record SpawnOrder(JobId childJob, String program, List<String> arguments, int count, Placement placement,
        GridModel parentGrid, SiteLatency latency, Duration timeout, boolean emulateWan) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    public SpawnOrder {
        Objects.requireNonNull(childJob, "childJob");
        Objects.requireNonNull(program, "program");
        arguments = List.copyOf(arguments);
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(parentGrid, "parentGrid");
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(timeout, "timeout");
        if (count < 1 || count > AgentZnodes.MAX_CHILDREN) {
            throw new IllegalArgumentException("spawn 1 to " + AgentZnodes.MAX_CHILDREN + " processes, got " + count);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the spawn timeout must be positive, got " + timeout);
        }
    }

    public SpawnOrder withTimeout(Duration newTimeout) {
        return new SpawnOrder(childJob, program, arguments, count, placement, parentGrid, latency, newTimeout, emulateWan);
    }
}
