package dev.canopy.probes.internal.schedule;

import dev.canopy.probes.internal.Metric;
import java.time.Duration;

/**
 * A probe the timetable wants sent now. The link stays busy (holds its token) until the prober reports
 * {@link ProbeTimetable#completed}.
 *
 * @param period the link's current mean period for this metric, for staleness accounting
 */
public record ProbeTask(ProbeLink link, Metric metric, Duration period) {
}
