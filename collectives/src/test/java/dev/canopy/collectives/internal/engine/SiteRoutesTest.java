package dev.canopy.collectives.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import dev.canopy.topology.internal.graph.LatencySource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The coordinators' routes without a network: least predicted time, relays only where they pay;
 * and the relay schedules every coordinator derives from them alone, which must agree.
 */
class SiteRoutesTest {

    private static final double UNMEASURED = LatencySource.UNMEASURED;

    @Test
    void directRoutesTakeOneHopInOneRound() {
        SiteRoutes routes = SiteRoutes.direct(4);
        for (int from = 0; from < 4; from++) {
            for (int to = 0; to < 4; to++) {
                if (from != to) {
                    assertThat(routes.path(from, to)).containsExactly(from, to);
                }
            }
        }
        assertThat(routes.rounds()).isEqualTo(1);
        assertThat(SiteRoutes.direct(1).rounds()).isZero();
    }

    /**
     * Four sites of the 8-site example, one way = RTT / 2: yonsei-a to kisti-a is 190 ms direct, 17 +
     * 5.9 ms through kut-a; kisti-a back to yonsei-a 120 ms direct.
     */
    @Test
    void theSlowYonseiKistiLinkIsRelayedThroughKut() {
        //                       yonsei-a ajou-a  kut-a  kisti-a
        LatencyMatrix example = matrix(new double[][] {
                {0, 9.25, 17, 190},
                {9.25, 0, 13, 15.25},
                {17, 13, 0, 5.9},
                {120, 15.25, 5.9, 0}});
        SiteRoutes routes = SiteRoutes.fastest(example, 1.0);
        assertThat(routes.path(0, 3)).containsExactly(0, 2, 3);
        assertThat(routes.path(3, 0)).containsExactly(3, 2, 0);
        assertThat(routes.path(0, 2)).containsExactly(0, 2);
        assertThat(routes.path(1, 3)).containsExactly(1, 3);
        assertThat(routes.rounds()).isEqualTo(2);
    }

    @Test
    void aRelayIsTakenOnlyWhenItSavesMoreThanTheHopCost() {
        // direct 20 ms; through site 2: 9.6 + 9.6 = 19.2 ms, 0.8 ms less for one more hop
        LatencyMatrix nearlyEqual = matrix(new double[][] {
                {0, 20, 9.6},
                {20, 0, 9.6},
                {9.6, 9.6, 0}});
        assertThat(SiteRoutes.fastest(nearlyEqual, 1.0).path(0, 1)).containsExactly(0, 1);
        assertThat(SiteRoutes.fastest(nearlyEqual, 0.5).path(0, 1)).containsExactly(0, 2, 1);
    }

    @Test
    void tiesGoToTheDirectLinkThenToTheLowerSite() {
        LatencyMatrix ties = matrix(new double[][] {
                {0, 20, 5, 5},
                {20, 0, 5, 5},
                {5, 5, 0, 9},
                {5, 5, 9, 0}});
        assertThat(SiteRoutes.fastest(ties, 0).path(0, 1)).as("10 ms through site 2 or 3").containsExactly(0, 2, 1);
        assertThat(SiteRoutes.fastest(ties, 10).path(0, 1)).as("30 ms direct or relayed").containsExactly(0, 1);
    }

    @Test
    void anUnmeasuredLinkIsRoutedAroundAndAPairNoPathJoinsGoesDirect() {
        LatencyMatrix gaps = matrix(new double[][] {
                {0, UNMEASURED, 4, UNMEASURED},
                {UNMEASURED, 0, 4, UNMEASURED},
                {4, 4, 0, UNMEASURED},
                {UNMEASURED, UNMEASURED, UNMEASURED, 0}});
        SiteRoutes routes = SiteRoutes.fastest(gaps, 1.0);
        assertThat(routes.path(0, 1)).containsExactly(0, 2, 1);
        assertThat(routes.path(0, 3)).containsExactly(0, 3);
        assertThat(routes.path(3, 1)).containsExactly(3, 1);
    }

    @Test
    void aHopCostMustBeAFiniteNumberOfMs() {
        LatencyMatrix two = matrix(new double[][] {{0, 1}, {1, 0}});
        assertThatThrownBy(() -> SiteRoutes.fastest(two, -0.5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-0.5");
        assertThatThrownBy(() -> SiteRoutes.fastest(two, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SiteRoutes.direct(2).path(1, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("site 1 to site 1");
    }

    @Test
    void theRoutesFollowThePlansLatenciesBetweenCoordinators() {
        // ranks 0, 2 in site 0; 1, 4 in site 1; 3 in site 2; coordinators 0, 1, 3
        Sites sites = Sites.of(List.of("a", "b", "a", "c", "b"));
        RankLatencies latencies = (from, to) -> sites.sameSite(from, to) ? 0.1
                : (sites.siteOf(from) + sites.siteOf(to) == 1 ? 100 : 10 + from + to);
        SiteRoutes routes = SiteRoutes.fastest(sites, latencies, 1.0);
        assertThat(routes.path(0, 1)).containsExactly(0, 2, 1);
        assertThat(routes.path(1, 0)).containsExactly(1, 2, 0);
        assertThat(routes.path(0, 2)).containsExactly(0, 2);
    }

    /**
     * On any latencies: a route runs from its origin to its destination without visiting a site twice,
     * and its predicted time (hops at latency plus hop cost) is no more than the direct link's.
     */
    @Property(tries = 300)
    void aRouteIsASimplePathNoSlowerThanTheDirectLink(@ForAll("latencies") double[][] oneWayMs,
            @ForAll("hopCosts") double hopMs) {
        SiteRoutes routes = SiteRoutes.fastest(matrix(oneWayMs), hopMs);
        int count = oneWayMs.length;
        for (int from = 0; from < count; from++) {
            for (int to = 0; to < count; to++) {
                if (from == to) {
                    continue;
                }
                int[] path = routes.path(from, to);
                assertThat(path[0]).isEqualTo(from);
                assertThat(path[path.length - 1]).isEqualTo(to);
                Set<Integer> visited = new HashSet<>();
                double predicted = 0;
                for (int i = 0; i < path.length; i++) {
                    assertThat(visited.add(path[i])).as("site %d twice on %s", path[i], routes).isTrue();
                    if (i > 0) {
                        predicted += oneWayMs[path[i - 1]][path[i]] + hopMs;
                    }
                }
                if (oneWayMs[from][to] != UNMEASURED) {
                    assertThat(predicted).isLessThanOrEqualTo(oneWayMs[from][to] + hopMs + 1e-9);
                }
            }
        }
    }

    /**
     * On any routes: coordinator a sends b a message in round k exactly when b expects one from a in
     * round k, exactly when some route takes the link a to b at hop k; a message waits only for
     * messages of the round before that its sender expects.
     */
    @Property(tries = 300)
    void everyCoordinatorExpectsExactlyTheMessagesTheOthersSend(@ForAll("latencies") double[][] oneWayMs,
            @ForAll("hopCosts") double hopMs, @ForAll boolean forwardOnly) {
        SiteRoutes all = SiteRoutes.fastest(matrix(oneWayMs), hopMs);
        SiteRoutes routes = forwardOnly ? all.forwardOnly() : all;
        int count = oneWayMs.length;
        Set<List<Integer>> hops = new HashSet<>();
        for (int from = 0; from < count; from++) {
            for (int to = 0; to < count; to++) {
                assertThat(routes.carries(from, to)).isEqualTo(forwardOnly ? from < to : from != to);
                if (routes.carries(from, to)) {
                    int[] path = routes.path(from, to);
                    for (int hop = 1; hop < path.length; hop++) {
                        hops.add(List.of(hop, path[hop - 1], path[hop]));
                    }
                }
            }
        }
        Set<List<Integer>> sent = new HashSet<>();
        Set<List<Integer>> expected = new HashSet<>();
        for (int site = 0; site < count; site++) {
            RelaySchedule schedule = RelaySchedule.of(routes, site);
            assertThat(schedule.rounds()).isEqualTo(routes.rounds());
            for (int round = 1; round <= schedule.rounds(); round++) {
                for (int sender : schedule.sendersIn(round)) {
                    expected.add(List.of(round, sender, site));
                }
                for (RelaySchedule.Send send : schedule.sendsIn(round)) {
                    assertThat(sent.add(List.of(round, site, send.toSite()))).isTrue();
                    if (round == 1) {
                        assertThat(send.waitsFor()).isEmpty();
                    } else {
                        assertThat(schedule.sendersIn(round - 1)).containsAll(send.waitsFor());
                        assertThat(send.waitsFor()).isNotEmpty();
                    }
                }
            }
        }
        assertThat(sent).isEqualTo(hops).isEqualTo(expected);
    }

    @Test
    void aRelayForwardsInRoundTwoWhatItHeardInRoundOne() {
        LatencyMatrix slowPair = matrix(new double[][] {
                {0, 100, 5},
                {100, 0, 5},
                {5, 5, 0}});
        SiteRoutes routes = SiteRoutes.fastest(slowPair, 1.0);
        RelaySchedule relay = RelaySchedule.of(routes, 2);
        assertThat(relay.sendersIn(1)).containsExactly(0, 1);
        assertThat(relay.sendsIn(1)).extracting(RelaySchedule.Send::toSite).containsExactly(0, 1);
        assertThat(relay.sendsIn(2)).containsExactly(
                new RelaySchedule.Send(2, 0, new TreeSet<>(List.of(1))),
                new RelaySchedule.Send(2, 1, new TreeSet<>(List.of(0))));
        RelaySchedule origin = RelaySchedule.of(routes, 0);
        assertThat(origin.sendsIn(1)).extracting(RelaySchedule.Send::toSite).containsExactly(2);
        assertThat(origin.sendersIn(1)).containsExactly(2);
        assertThat(origin.sendersIn(2)).containsExactly(2);
        assertThat(origin.sendsIn(2)).isEmpty();
    }

    @Provide
    Arbitrary<double[][]> latencies() {
        Arbitrary<Double> link = Arbitraries.frequencyOf(
                Tuple.of(9, Arbitraries.doubles().between(0.05, 300)),
                Tuple.of(1, Arbitraries.just(UNMEASURED)));
        return Arbitraries.integers().between(2, 9).flatMap(count -> link.list().ofSize(count * count).map(values -> {
            double[][] oneWayMs = new double[count][count];
            for (int from = 0; from < count; from++) {
                for (int to = 0; to < count; to++) {
                    oneWayMs[from][to] = from == to ? 0 : values.get(from * count + to);
                }
            }
            return oneWayMs;
        }));
    }

    @Provide
    Arbitrary<Double> hopCosts() {
        return Arbitraries.of(0.0, 0.05, 1.0, 20.0);
    }

    static LatencyMatrix matrix(double[][] oneWayMs) {
        int count = oneWayMs.length;
        List<String> names = new ArrayList<>();
        double[] values = new double[count * count];
        for (int from = 0; from < count; from++) {
            names.add("site" + from);
            for (int to = 0; to < count; to++) {
                values[from * count + to] = oneWayMs[from][to];
            }
        }
        return LatencyMatrix.ofRowMajor(names, values);
    }
}
