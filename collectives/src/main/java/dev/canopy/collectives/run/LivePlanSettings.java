package dev.canopy.collectives.run;

import dev.canopy.collectives.leader.LeaderSettings;
import dev.canopy.probes.forecast.ForecastSettings;
import dev.canopy.probes.measure.ProbeSettings;
import dev.canopy.probes.schedule.ScheduleSettings;
import java.util.Objects;

/**
 * How a session that follows live plans measures the network and when its plan leader re-plans.
 *
 * @param probes the node's probe service (period, forecasters, budget)
 * @param leader the re-plan policy and evaluation interval
 */
public record LivePlanSettings(ProbeSettings probes, LeaderSettings leader) {

    /** Probes every second (NWS-style defaults), the topology module's re-plan policy, evaluated every 5 s. */
    public static final LivePlanSettings DEFAULTS = new LivePlanSettings(
            ProbeSettings.around(ScheduleSettings.DEFAULTS, ForecastSettings.DEFAULTS), LeaderSettings.DEFAULTS);

    public LivePlanSettings {
        Objects.requireNonNull(probes, "probes");
        Objects.requireNonNull(leader, "leader");
    }
}
