package dev.canopy.probes.internal.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.probes.internal.Link;
import dev.canopy.probes.internal.TestGrids;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every node's timetable over simulated time and counts the probe messages each node sends and
 * receives, to show that the load per node stays bounded as the grid grows from 16 to 64 nodes.
 */
class ProbeLoadGrowthTest {

    private static final Logger LOG = LoggerFactory.getLogger(ProbeLoadGrowthTest.class);

    private static final long MS = 1_000_000;
    private static final Duration SIMULATED = Duration.ofSeconds(60);
    private static final long ROUND_TRIP = 40 * MS;
    private static final ScheduleSettings SETTINGS = ScheduleSettings.DEFAULTS;

    private record Completion(long atNanos, NodeId owner, Link link) {
    }

    /** Probe messages per node per second: the largest over all nodes and the mean; and the total. */
    private record Measured(double maxPerNode, double meanPerNode, double total) {
    }

    private static Measured simulate(List<Member> members) {
        Map<NodeId, ProbeTimetable> timetables = new HashMap<>();
        Map<NodeId, Long> messages = new HashMap<>();
        Set<Link> inFlight = new HashSet<>();
        PriorityQueue<Completion> completions = new PriorityQueue<>((x, y) -> Long.compare(x.atNanos(), y.atNanos()));
        long rotation = SETTINGS.latencyPeriod().toNanos() * SETTINGS.crossCheckRotationPeriods();
        long round = 0;
        for (Member member : members) {
            ProbeTimetable timetable = new ProbeTimetable(member.id(), SETTINGS);
            timetable.update(ProbePlan.of(members, SETTINGS, round), 0);
            timetables.put(member.id(), timetable);
        }
        for (long now = 0; now < SIMULATED.toNanos(); now += MS) {
            if (now / rotation != round) {
                round = now / rotation;
                ProbePlan plan = ProbePlan.of(members, SETTINGS, round);
                for (ProbeTimetable timetable : timetables.values()) {
                    timetable.update(plan, now);
                }
            }
            while (!completions.isEmpty() && completions.peek().atNanos() <= now) {
                Completion done = completions.poll();
                inFlight.remove(done.link());
                timetables.get(done.owner()).completed(done.link());
            }
            for (Map.Entry<NodeId, ProbeTimetable> entry : timetables.entrySet()) {
                for (ProbeTask task : entry.getValue().due(now)) {
                    Link link = task.link().link();
                    assertThat(inFlight.add(link)).as("a second probe on %s at %d ms", link, now / MS).isTrue();
                    // Request out and reply in at the prober, request in and reply out at the responder.
                    messages.merge(link.a(), 2L, Long::sum);
                    messages.merge(link.b(), 2L, Long::sum);
                    completions.add(new Completion(now + ROUND_TRIP, entry.getKey(), link));
                }
            }
        }
        double seconds = SIMULATED.toNanos() / 1e9;
        double max = messages.values().stream().mapToLong(Long::longValue).max().orElse(0) / seconds;
        double total = messages.values().stream().mapToLong(Long::longValue).sum() / seconds;
        return new Measured(max, total / members.size(), total);
    }

    @ParameterizedTest(name = "{0} sites of {1} nodes, then {2} sites of {3}")
    @CsvSource({"4, 4, 4, 16", "4, 4, 16, 4", "8, 2, 8, 8"})
    void loadPerNodeStaysBoundedFrom16To64Nodes(int sites16, int per16, int sites64, int per64) {
        Measured small = simulate(TestGrids.members(sites16, per16));
        Measured large = simulate(TestGrids.members(sites64, per64));

        LOG.info("probe messages per node per second, 16 nodes: {}; 64 nodes: {}", small, large);

        // A node's links: its local mesh (capped), the other representatives if it is one, a few cross-checks.
        double periods = 1e9 / SETTINGS.latencyPeriod().toNanos();
        int mostLinks = SETTINGS.localMeshDegree() + (sites64 - 1) + 2 * SETTINGS.crossChecksPerSite() * sites64;
        double bound = 2 * Math.min(SETTINGS.maxProbesPerNodePerSecond(), mostLinks * periods);
        double fullMesh = 2 * 63 * periods;
        assertThat(large.maxPerNode()).as("busiest node of 64 (%s; 16 nodes: %s)", large, small)
                .isLessThanOrEqualTo(bound * 1.1)
                .isLessThan(fullMesh / 2);
        assertThat(small.maxPerNode()).isLessThanOrEqualTo(bound * 1.1);
    }

    /** The README's table: probe messages per node per second as the grid grows (mvn ... -Pexhaustive). */
    @Test
    @Tag("exhaustive")
    void tabulatesLoadAgainstGridSize() {
        StringBuilder table = new StringBuilder("\n| nodes | sites x nodes | mean msg/s/node | busiest node | full mesh |\n");
        table.append("| ---: | --- | ---: | ---: | ---: |\n");
        int[][] grids = {{8, 2}, {8, 4}, {8, 8}, {8, 16}, {8, 32}, {4, 4}, {16, 4}, {32, 4}, {64, 4}};
        for (int[] grid : grids) {
            int nodes = grid[0] * grid[1];
            Measured measured = simulate(TestGrids.members(grid[0], grid[1]));
            table.append(String.format(java.util.Locale.ROOT, "| %d | %d x %d | %.1f | %.1f | %.0f |%n", nodes,
                    grid[0], grid[1], measured.meanPerNode(), measured.maxPerNode(),
                    2.0 * (nodes - 1) * 1e9 / SETTINGS.latencyPeriod().toNanos()));
        }
        LOG.info("{}", table);
        assertThat(table).isNotEmpty();
    }
}
