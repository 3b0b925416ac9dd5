package dev.canopy.probes.internal.measure;

import dev.canopy.probes.internal.forecast.ForecastSettings;
import dev.canopy.probes.internal.schedule.ScheduleSettings;
import java.time.Duration;

/**
 * Everything a {@link ProbeService} needs to know, validated once.
 *
 * @param schedule who probes whom and how often
 * @param forecast how samples become forecasts, and when a link is stale
 * @param probeTimeout how long a probe waits for its answer before it counts as lost
 * @param bandwidthBytes size of one timed bandwidth transfer (64 KiB by default)
 * @param tick how often the service looks for due probes; well below the latency period
 */
public record ProbeSettings(ScheduleSettings schedule, ForecastSettings forecast, Duration probeTimeout,
                            int bandwidthBytes, Duration tick) {

    public static final int DEFAULT_BANDWIDTH_BYTES = 64 * 1024;

    public ProbeSettings {
        if (schedule == null || forecast == null) {
            throw new IllegalArgumentException("probe settings need schedule and forecast settings");
        }
        requirePositive(probeTimeout, "probe timeout");
        requirePositive(tick, "probe tick");
        if (probeTimeout.compareTo(schedule.latencyPeriod().multipliedBy(forecast.stalePeriods())) >= 0) {
            throw new IllegalArgumentException("probe timeout " + probeTimeout.toMillis() + " ms must be shorter than "
                    + forecast.stalePeriods() + " latency periods, or a live link could turn stale while waiting");
        }
        if (bandwidthBytes < 1 || bandwidthBytes > 16 * 1024 * 1024 - 1024) {
            throw new IllegalArgumentException("bandwidth probe size " + bandwidthBytes
                    + " bytes must be between 1 and 16 MiB less 1 KiB (one frame)");
        }
    }

    /** Defaults around a latency period: timeout of one period (at most 2 s), tick of a tenth (1 to 100 ms). */
    public static ProbeSettings around(ScheduleSettings schedule, ForecastSettings forecast) {
        Duration period = schedule.latencyPeriod();
        Duration timeout = min(period, Duration.ofSeconds(2));
        Duration tick = max(Duration.ofMillis(1), min(period.dividedBy(10), Duration.ofMillis(100)));
        return new ProbeSettings(schedule, forecast, timeout, DEFAULT_BANDWIDTH_BYTES, tick);
    }

    public ProbeSettings withBandwidthBytes(int bytes) {
        return new ProbeSettings(schedule, forecast, probeTimeout, bytes, tick);
    }

    public ProbeSettings withProbeTimeout(Duration timeout) {
        return new ProbeSettings(schedule, forecast, timeout, bandwidthBytes, tick);
    }

    private static Duration min(Duration x, Duration y) {
        return x.compareTo(y) <= 0 ? x : y;
    }

    private static Duration max(Duration x, Duration y) {
        return x.compareTo(y) >= 0 ? x : y;
    }

    private static void requirePositive(Duration duration, String what) {
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " " + duration + " must be a positive duration");
        }
    }
}
