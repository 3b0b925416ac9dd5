package dev.canopy.probes.internal.schedule;

import java.time.Duration;

/**
 * How often and between whom probes run; validated once, at construction.
 *
 * @param latencyPeriod mean time between two round-trip probes on one link
 * @param periodJitter each period is drawn uniformly from {@code latencyPeriod * (1 +- periodJitter)}, so that
 *     probes of different links drift apart instead of firing together
 * @param bandwidthPeriod mean time between two bandwidth transfers on one representative link
 * @param localMeshDegree most peers a node probes inside its site; sites larger than {@code degree + 1} are
 *     probed as a ring with that many neighbours instead of a full mesh
 * @param crossChecksPerSite links per site and rotation between a non-representative and a node of another
 *     site, sampled at random, to check that the representatives speak for their sites
 * @param crossCheckRotationPeriods latency periods after which the sampled cross-checks are drawn anew
 * @param maxProbesPerNodePerSecond most probes a node takes part in per second, as prober or responder (each
 *     costs it two messages); links of busy nodes get longer periods to stay within it
 * @param seed seeds every random choice, so that a run can be repeated
 */
public record ScheduleSettings(Duration latencyPeriod, double periodJitter, Duration bandwidthPeriod,
                               int localMeshDegree, int crossChecksPerSite, int crossCheckRotationPeriods,
                               double maxProbesPerNodePerSecond, long seed) {

    public static final ScheduleSettings DEFAULTS = new ScheduleSettings(Duration.ofSeconds(1), 0.25,
            Duration.ofSeconds(30), 8, 1, 10, 20, 1);

    public ScheduleSettings {
        requirePositive(latencyPeriod, "latency period");
        requirePositive(bandwidthPeriod, "bandwidth period");
        if (!(periodJitter >= 0 && periodJitter < 1)) {
            throw new IllegalArgumentException("period jitter " + periodJitter + " must be a fraction in [0, 1)");
        }
        if (localMeshDegree < 1) {
            throw new IllegalArgumentException("local mesh degree " + localMeshDegree + " must be at least 1");
        }
        if (crossChecksPerSite < 0) {
            throw new IllegalArgumentException("cross-checks per site " + crossChecksPerSite + " must not be negative");
        }
        if (crossCheckRotationPeriods < 1) {
            throw new IllegalArgumentException("cross-check rotation of " + crossCheckRotationPeriods
                    + " periods must be at least 1");
        }
        if (!(maxProbesPerNodePerSecond > 0) || Double.isInfinite(maxProbesPerNodePerSecond)) {
            throw new IllegalArgumentException("probe budget " + maxProbesPerNodePerSecond
                    + " probes per node per second must be a positive number");
        }
    }

    public ScheduleSettings withLatencyPeriod(Duration period) {
        return new ScheduleSettings(period, periodJitter, bandwidthPeriod, localMeshDegree, crossChecksPerSite,
                crossCheckRotationPeriods, maxProbesPerNodePerSecond, seed);
    }

    public ScheduleSettings withBandwidthPeriod(Duration period) {
        return new ScheduleSettings(latencyPeriod, periodJitter, period, localMeshDegree, crossChecksPerSite,
                crossCheckRotationPeriods, maxProbesPerNodePerSecond, seed);
    }

    public ScheduleSettings withMaxProbesPerNodePerSecond(double budget) {
        return new ScheduleSettings(latencyPeriod, periodJitter, bandwidthPeriod, localMeshDegree, crossChecksPerSite,
                crossCheckRotationPeriods, budget, seed);
    }

    public ScheduleSettings withSeed(long newSeed) {
        return new ScheduleSettings(latencyPeriod, periodJitter, bandwidthPeriod, localMeshDegree, crossChecksPerSite,
                crossCheckRotationPeriods, maxProbesPerNodePerSecond, newSeed);
    }

    private static void requirePositive(Duration duration, String what) {
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " " + duration + " must be a positive duration");
        }
    }
}
