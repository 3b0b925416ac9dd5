package dev.canopy.probes.internal.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.Member;
import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.TestGrids;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProbeTimetableTest {

    private static final long MS = 1_000_000;
    private static final ScheduleSettings SETTINGS = ScheduleSettings.DEFAULTS
            .withLatencyPeriod(Duration.ofMillis(100)).withBandwidthPeriod(Duration.ofSeconds(1));

    private final List<Member> members = TestGrids.members(2, 2);
    private final ProbePlan plan = ProbePlan.of(members, SETTINGS, 0);

    private ProbeTimetable timetableOfAnOwner() {
        Member owner = plan.links().get(0).owner();
        ProbeTimetable timetable = new ProbeTimetable(owner.id(), SETTINGS);
        timetable.update(plan, 0);
        return timetable;
    }

    @Test
    void neverStartsASecondProbeOnALinkWhoseTokenIsOut() {
        ProbeTimetable timetable = timetableOfAnOwner();
        List<ProbeTask> first = new ArrayList<>();
        long now = 0;
        while (first.isEmpty()) {
            now += MS;
            first.addAll(timetable.due(now));
        }
        ProbeTask task = first.get(0);
        for (long t = now; t < now + 5_000 * MS; t += MS) {
            assertThat(timetable.due(t)).noneMatch(other -> other.link().equals(task.link()));
        }
        timetable.completed(task.link().link());
        assertThat(timetable.due(now + 5_000 * MS)).anyMatch(other -> other.link().equals(task.link()));
    }

    @Test
    void aRepresentativeOfManySitesHasOneBandwidthTransferOutAtATime() {
        List<Member> sites = TestGrids.members(6, 1);
        ProbePlan wide = ProbePlan.of(sites, SETTINGS, 0);
        Member busiest = sites.stream().max(Comparator.comparingInt(member -> wide.linksOwnedBy(member.id()).size()))
                .orElseThrow();
        ProbeTimetable timetable = new ProbeTimetable(busiest.id(), SETTINGS);
        timetable.update(wide, 0);
        int owned = wide.linksOwnedBy(busiest.id()).size();
        assertThat(owned).as("links the busiest representative owns").isGreaterThan(1);

        Map<ProbeTask, Long> outUntil = new HashMap<>();
        Set<ProbeLink> transferred = new HashSet<>();
        int transfers = 0;
        for (long now = 0; now < 10_000 * MS; now += MS) {
            long at = now;
            outUntil.entrySet().removeIf(out -> {
                if (out.getValue() <= at) {
                    timetable.completed(out.getKey().link().link());
                    return true;
                }
                return false;
            });
            for (ProbeTask task : timetable.due(now)) {
                // a 64 KiB transfer over a thin link takes 200 ms, a round trip 1 ms
                outUntil.put(task, now + (task.metric() == Metric.BANDWIDTH ? 200 : 1) * MS);
                if (task.metric() == Metric.BANDWIDTH) {
                    transfers++;
                    transferred.add(task.link());
                }
            }
            assertThat(outUntil.keySet().stream().filter(task -> task.metric() == Metric.BANDWIDTH).count())
                    .as("bandwidth transfers out at %d ms", now / MS).isLessThanOrEqualTo(1);
        }
        assertThat(transferred).as("every owned representative link is measured").hasSize(owned);
        assertThat(transfers).as("about one transfer per link and period (1 s), never more")
                .isLessThanOrEqualTo(owned * 10 * 2);
    }

    @Test
    void drawsPeriodsAtRandomAroundTheMean() {
        ProbeTimetable timetable = timetableOfAnOwner();
        ProbeLink watched = plan.linksOwnedBy(plan.links().get(0).owner().id()).get(0);
        List<Long> starts = new ArrayList<>();
        for (long t = 0; t < 60_000 * MS; t += MS) {
            for (ProbeTask task : timetable.due(t)) {
                if (task.link().equals(watched) && task.metric() == Metric.ROUND_TRIP_TIME) {
                    starts.add(t);
                }
                timetable.completed(task.link().link());
            }
        }
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < starts.size(); i++) {
            gaps.add((starts.get(i) - starts.get(i - 1)) / MS);
        }
        long expected = plan.latencyPeriod(watched).toMillis();
        assertThat(gaps).allSatisfy(gap -> assertThat(gap).isBetween((long) (expected * 0.74), (long) (expected * 1.26)));
        assertThat(gaps.stream().distinct().count()).as("periods vary").isGreaterThan(10);
        double mean = gaps.stream().mapToLong(Long::longValue).average().orElseThrow();
        assertThat(mean).isBetween(expected * 0.9, expected * 1.1);
    }

    @Test
    void keepsATokenAcrossAPlanChange() {
        ProbeTimetable timetable = timetableOfAnOwner();
        List<ProbeTask> tasks = new ArrayList<>();
        for (long t = 0; tasks.isEmpty(); t += MS) {
            tasks.addAll(timetable.due(t));
        }
        int busy = timetable.busyLinks();
        timetable.update(ProbePlan.of(members, SETTINGS, 1), 200 * MS);
        assertThat(timetable.busyLinks()).isEqualTo(busy);
        assertThat(timetable.nextDueNanos()).isLessThan(Long.MAX_VALUE);
    }
}
