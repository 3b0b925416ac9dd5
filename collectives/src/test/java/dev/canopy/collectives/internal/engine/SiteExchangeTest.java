package dev.canopy.collectives.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.PointToPoint;
import dev.canopy.core.node.Member;
import dev.canopy.topology.internal.graph.LatencySource;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * On real nodes (12 ranks in 6 sites of 2): only coordinators cross sites; directly, once per ordered
 * site pair, or relayed around a slow link, at most once per coordinator pair and round.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SiteExchangeTest {

    private static final int SIZE = 12;

    private LocalGrid grid;
    private Sites sites;

    @BeforeAll
    void startGrid() {
        grid = LocalGrid.start("site-exchange", SIZE);
        sites = Sites.ofMembers(grid.world().get(0).members());
    }

    @AfterAll
    void stopGrid() {
        grid.close();
    }

    @Test
    void directRoutesCrossSitesWithOneMessagePerOrderedSitePair() {
        Queue<int[]> sent = new ConcurrentLinkedQueue<>();
        assertEveryRankGetsEveryBlock(exchange(SiteRoutes.direct(sites.count()), 7, sent));
        List<int[]> crossSite = crossSite(sent);
        assertThat(sites.count()).isEqualTo(6);
        assertThat(crossSite).hasSize(6 * 5).allSatisfy(this::assertBetweenCoordinators);
    }

    /**
     * The plan predicts 200 ms each way between the coordinators of sites 0 and 1 and 10 ms between
     * any other two sites: their aggregates go through site 2 (the lowest of the equally fast relays),
     * whose coordinator forwards each in round 2 (step 4), and nothing crosses the slow link.
     */
    @Test
    void relayedRoutesAvoidTheSlowLinkAndSendOncePerCoordinatorPairAndRound() {
        TopologyPlan plan = new TopologyPlan(grid.world().get(0).members(),
                new HierarchicalPlanner(LevelAlgorithms.everywhere(TreeAlgorithm.HLOT), ConfiguredPlans.COST),
                slowBetweenSitesOf(grid.world().get(0), sites.coordinator(0), sites.coordinator(1)), 1);
        SiteRoutes routes = SiteRoutes.fastest(sites, plan::oneWayMs, 1.0);
        assertThat(routes.path(0, 1)).containsExactly(0, 2, 1);
        assertThat(routes.path(1, 0)).containsExactly(1, 2, 0);

        Queue<int[]> sent = new ConcurrentLinkedQueue<>();
        assertEveryRankGetsEveryBlock(exchange(routes, 8, sent));
        List<int[]> crossSite = crossSite(sent);
        assertThat(crossSite).allSatisfy(this::assertBetweenCoordinators).noneSatisfy(message -> {
            assertThat(sites.siteOf(message[0]) + sites.siteOf(message[1])).isEqualTo(1);
        });
        assertThat(crossSite.stream().map(message -> List.of(message[0], message[1], message[2])).distinct())
                .as("one message per coordinator pair and round").hasSize(crossSite.size());
        assertThat(crossSite.stream().filter(message -> message[2] == 3)).hasSize(6 * 5 - 2);
        assertThat(crossSite.stream().filter(message -> message[2] == 4)
                .map(message -> List.of(sites.siteOf(message[0]), sites.siteOf(message[1]))))
                .containsExactlyInAnyOrder(List.of(2, 1), List.of(2, 0));
        assertThat(crossSite).hasSize(6 * 5);
    }

    /** Runs one all-to-all on every rank over recording channels; the results by rank. */
    private List<List<Buffer>> exchange(SiteRoutes routes, int sequence, Queue<int[]> sent) {
        List<Future<List<Buffer>>> results = new ArrayList<>();
        for (Communicator member : grid.world()) {
            Promise<List<Buffer>> result = Promise.promise();
            member.context().runOnContext(ignored -> {
                PointToPoint recording = new RecordingChannel(member.collectiveChannel(), sent);
                Exchange exchange = new Exchange(recording, Operation.ALLTOALLV, sequence, 0, "test#" + member.rank());
                exchange.run(() -> new SiteExchange(exchange, sites, routes, 0).run(blocksOf(member.rank())))
                        .onComplete(result);
            });
            results.add(result.future());
        }
        return results.stream().map(LocalGrid::await).toList();
    }

    private static void assertEveryRankGetsEveryBlock(List<List<Buffer>> received) {
        for (int rank = 0; rank < SIZE; rank++) {
            for (int source = 0; source < SIZE; source++) {
                Buffer block = received.get(rank).get(source);
                assertThat(block.toString()).isEqualTo(source + "->" + rank);
                // The caller owns its result: it can grow it (a slice of a message could not).
                assertThat(block.appendByte((byte) '!').toString()).isEqualTo(source + "->" + rank + "!");
            }
        }
    }

    private List<int[]> crossSite(Queue<int[]> sent) {
        return sent.stream().filter(message -> !sites.sameSite(message[0], message[1])).toList();
    }

    private void assertBetweenCoordinators(int[] message) {
        assertThat(message[0]).isEqualTo(sites.coordinator(sites.siteOf(message[0])));
        assertThat(message[1]).isEqualTo(sites.coordinator(sites.siteOf(message[1])));
    }

    /** 0.5 ms inside a site, 200 ms between the sites of ranks {@code a} and {@code b}, 10 ms between any other two. */
    private static LatencySource slowBetweenSitesOf(Communicator world, int a, int b) {
        Map<String, String> siteByName = new HashMap<>();
        for (Member member : world.members()) {
            siteByName.put(TopologyPlan.nameOf(member), Sites.nameOf(member.coordinates()));
        }
        String slowA = Sites.nameOf(world.member(a).coordinates());
        String slowB = Sites.nameOf(world.member(b).coordinates());
        return (from, to) -> {
            String fromSite = siteByName.get(from);
            String toSite = siteByName.get(to);
            if (fromSite.equals(toSite)) {
                return 0.5;
            }
            boolean slow = fromSite.equals(slowA) && toSite.equals(slowB) || fromSite.equals(slowB) && toSite.equals(slowA);
            return slow ? 200 : 10;
        };
    }

    private static List<Buffer> blocksOf(int source) {
        List<Buffer> blocks = new ArrayList<>();
        for (int destination = 0; destination < SIZE; destination++) {
            blocks.add(Buffer.buffer(source + "->" + destination));
        }
        return blocks;
    }
}
