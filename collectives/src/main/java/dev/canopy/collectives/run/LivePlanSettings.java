package dev.canopy.collectives.run;

import dev.canopy.collectives.internal.leader.LeaderSettings;
import dev.canopy.probes.internal.forecast.ForecastSettings;
import dev.canopy.probes.internal.measure.ProbeSettings;
import dev.canopy.probes.internal.schedule.ScheduleSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * How a session that follows live plans measures the network and when its plan leader re-plans.
 *
 * @param probes the node's probe service (period, forecasters, budget)
 * @param summaryInterval how often a site representative publishes its site pairs' forecasts, which the plan
 *     leader reads for the links its own node does not probe
 * @param leader the re-plan policy and evaluation interval
 */
public record LivePlanSettings(ProbeSettings probes, Duration summaryInterval, LeaderSettings leader) {

    /**
     * Probes every second (NWS-style defaults), site summaries every second, the topology module's re-plan policy
     * evaluated every 5 s.
     */
    public static final LivePlanSettings DEFAULTS = new LivePlanSettings(
            ProbeSettings.around(ScheduleSettings.DEFAULTS, ForecastSettings.DEFAULTS), Duration.ofSeconds(1),
            LeaderSettings.DEFAULTS);

    public LivePlanSettings {
        Objects.requireNonNull(probes, "probes");
        Objects.requireNonNull(leader, "leader");
        if (summaryInterval == null || summaryInterval.toMillis() < 1) {
            throw new IllegalArgumentException("site summary interval " + summaryInterval + " must be at least 1 ms");
        }
    }
}
