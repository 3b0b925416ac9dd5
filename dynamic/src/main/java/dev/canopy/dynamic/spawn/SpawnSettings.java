package dev.canopy.dynamic.spawn;

import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.core.node.JobId;
import dev.canopy.processes.AgentZnodes;
import dev.canopy.processes.SpawnOrder;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How a group spawns: the agent pool it asks, how long the children have to start and join (after which every
 * parent's future fails and the children are killed), and whether the children emulate the grid's WAN among
 * themselves (as {@code canopy launch} does).
 *
 * @param probedJob the parents' job, whose probes' published forecasts give the measured latency from the root
 *        to each site for automatic placement (with live plans); without it, or before any forecast, the level
 *        file's configured RTTs are used
 */
public record SpawnSettings(String pool, Duration timeout, WanEmulation wan, Optional<JobId> probedJob) {

    /** Whether spawned processes emulate the level file's WAN between their sites. */
    public enum WanEmulation {
        EMULATED, NONE
    }

    public static final SpawnSettings DEFAULTS = new SpawnSettings(AgentZnodes.DEFAULT_POOL, SpawnOrder.DEFAULT_TIMEOUT,
            WanEmulation.EMULATED, Optional.empty());

    public SpawnSettings {
        AgentZnodes.requireName(pool, "agent pool");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(wan, "wan");
        Objects.requireNonNull(probedJob, "probedJob");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the spawn timeout must be positive, got " + timeout);
        }
    }

    /** The defaults, with the job of a process {@code canopy launch} or {@code canopy node} started as the probed job. */
    public static SpawnSettings fromEnvironment(Map<String, String> environment) {
        String job = environment.get(JoinOptions.ENV_JOB);
        return job == null || job.isBlank() ? DEFAULTS : DEFAULTS.withProbedJob(JobId.of(job.strip()));
    }

    public SpawnSettings withPool(String newPool) {
        return new SpawnSettings(newPool, timeout, wan, probedJob);
    }

    public SpawnSettings withTimeout(Duration newTimeout) {
        return new SpawnSettings(pool, newTimeout, wan, probedJob);
    }

    public SpawnSettings withWan(WanEmulation newWan) {
        return new SpawnSettings(pool, timeout, newWan, probedJob);
    }

    public SpawnSettings withProbedJob(JobId job) {
        return new SpawnSettings(pool, timeout, wan, Optional.of(job));
    }
}
