package dev.canopy.probes.internal.schedule;

import dev.canopy.core.node.NodeId;
import dev.canopy.probes.internal.Link;
import dev.canopy.probes.internal.Metric;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * When one node probes which of its links: pure logic over an injected time ({@code nowNanos} arguments).
 *
 * <p>Each owned link holds a token: while a probe of either metric is out on it, no other starts, so a
 * bandwidth transfer never skews a round-trip sample. Periods are drawn at random around the link's mean
 * period, and new links start at a random phase, so probes spread out in time. Bandwidth transfers run only
 * on representative links, and a node has at most one out at a time: transfers from one node would share its
 * uplink and each measure a fraction of its links' bandwidth, and a representative of many sites would send
 * them all at once. One that falls due meanwhile waits for the next look. Not thread-safe: owned by the probe
 * service's event loop.
 */
public final class ProbeTimetable {

    private static final class LinkTimes {
        ProbeLink link;
        long nextLatencyNanos;
        long nextBandwidthNanos;
        boolean busy;
        boolean transferring;
    }

    private final NodeId self;
    private final ScheduleSettings settings;
    private final SplittableRandom random;
    private final Map<Link, LinkTimes> owned = new HashMap<>();
    private ProbePlan plan;
    /** A bandwidth transfer of this node is out (on one of its links). */
    private boolean transferOut;

    public ProbeTimetable(NodeId self, ScheduleSettings settings) {
        this.self = self;
        this.settings = settings;
        this.random = new SplittableRandom(settings.seed() ^ self.value().hashCode());
    }

    /** Adopts a new plan: links kept keep their times and tokens, new ones start at a random phase. */
    public void update(ProbePlan newPlan, long nowNanos) {
        this.plan = newPlan;
        Map<Link, LinkTimes> previous = new HashMap<>(owned);
        owned.clear();
        for (ProbeLink link : newPlan.linksOwnedBy(self)) {
            LinkTimes times = previous.get(link.link());
            if (times == null) {
                times = new LinkTimes();
                times.nextLatencyNanos = nowNanos + (long) (random.nextDouble() * newPlan.latencyPeriod(link).toNanos());
                times.nextBandwidthNanos = nowNanos + jittered(newPlan.bandwidthPeriod(link));
            }
            times.link = link;
            owned.put(link.link(), times);
        }
        // A transfer on a link this node no longer owns is never reported completed: it no longer holds the slot.
        transferOut = owned.values().stream().anyMatch(times -> times.transferring);
    }

    /** The probes due at {@code nowNanos} on links whose token is free; their tokens are taken. */
    public List<ProbeTask> due(long nowNanos) {
        List<ProbeTask> tasks = new ArrayList<>();
        for (LinkTimes times : owned.values()) {
            if (times.busy) {
                continue;
            }
            if (times.link.role() == LinkRole.REPRESENTATIVES && nowNanos >= times.nextBandwidthNanos && !transferOut) {
                times.busy = true;
                times.transferring = true;
                transferOut = true;
                times.nextBandwidthNanos = nowNanos + jittered(plan.bandwidthPeriod(times.link));
                tasks.add(new ProbeTask(times.link, Metric.BANDWIDTH, plan.bandwidthPeriod(times.link)));
            } else if (nowNanos >= times.nextLatencyNanos) {
                times.busy = true;
                times.nextLatencyNanos = nowNanos + jittered(plan.latencyPeriod(times.link));
                tasks.add(new ProbeTask(times.link, Metric.ROUND_TRIP_TIME, plan.latencyPeriod(times.link)));
            }
        }
        return tasks;
    }

    /** Releases the link's token once its probe was answered or timed out; unknown links are ignored. */
    public void completed(Link link) {
        LinkTimes times = owned.get(link);
        if (times != null) {
            times.busy = false;
            if (times.transferring) {
                times.transferring = false;
                transferOut = false;
            }
        }
    }

    /** The earliest time a probe may become due, for the caller's timer; {@code Long.MAX_VALUE} if none. */
    public long nextDueNanos() {
        long next = Long.MAX_VALUE;
        for (LinkTimes times : owned.values()) {
            next = Math.min(next, times.nextLatencyNanos);
            if (times.link.role() == LinkRole.REPRESENTATIVES) {
                next = Math.min(next, times.nextBandwidthNanos);
            }
        }
        return next;
    }

    public int ownedLinks() {
        return owned.size();
    }

    public int busyLinks() {
        return (int) owned.values().stream().filter(t -> t.busy).count();
    }

    private long jittered(Duration period) {
        double factor = 1 + settings.periodJitter() * (2 * random.nextDouble() - 1);
        return (long) (period.toNanos() * factor);
    }
}
