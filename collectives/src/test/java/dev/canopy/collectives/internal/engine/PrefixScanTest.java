package dev.canopy.collectives.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.reduce.ReduceOp;
import dev.canopy.core.comm.Communicator;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Scan on real nodes (24 ranks, 6 sites of 4): rank-ordered results with an operator that is not
 * commutative, and the WAN crossed only by the blocks' first members, along the fastest paths.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrefixScanTest {

    private static final int SIZE = 24;
    /** Concatenation: associative, not commutative, and its prefixes spell out the ranks in order. */
    private static final ReduceOp CONCATENATION = ReduceOp.ofBuffers("concatenation",
            (left, right) -> left.copy().appendBuffer(right));

    private LocalGrid grid;

    @BeforeAll
    void startGrid() {
        grid = LocalGrid.start("prefix-scan", SIZE);
    }

    @AfterAll
    void stopGrid() {
        grid.close();
    }

    @Test
    void onlySitesFirstRanksCrossTheWanAndTheSlowLinkIsAvoided() {
        Sites sites = sitesOf(grid.world().get(0));
        assertThat(sites.count()).isEqualTo(6);
        int slowFrom = sites.coordinator(0);
        int slowTo = sites.coordinator(5);
        RankLatencies latencies = (from, to) -> sites.sameSite(from, to) ? 0.2
                : Set.of(from, to).equals(Set.of(slowFrom, slowTo)) ? 500 : 10;
        Queue<int[]> sent = new ConcurrentLinkedQueue<>();
        assertPrefixesSpellTheRanks(scan(grid.world(), latencies, sent));
        List<int[]> crossSite = sent.stream().filter(pair -> !sites.sameSite(pair[0], pair[1])).toList();
        assertThat(crossSite).isNotEmpty().allSatisfy(pair -> {
            assertThat(pair[0]).as("sender is its site's first rank").isEqualTo(sites.coordinator(sites.siteOf(pair[0])));
            assertThat(pair[1]).as("receiver is its site's first rank").isEqualTo(sites.coordinator(sites.siteOf(pair[1])));
            assertThat(Set.of(pair[0], pair[1])).as("the slow link").isNotEqualTo(Set.of(slowFrom, slowTo));
        });
    }

    /** Ranks ordered round-robin over the sites: 24 one-rank blocks, whose totals go in log₂ rounds. */
    @Test
    void interleavedSitesExchangeTotalsInLogarithmicRounds() {
        List<Future<Communicator>> splits = new ArrayList<>();
        for (Communicator world : grid.world()) {
            Sites sites = sitesOf(world);
            int site = sites.siteOf(world.rank());
            int positionInSite = world.rank() - sites.coordinator(site);
            splits.add(world.split(0, positionInSite * sites.count() + site));
        }
        List<Communicator> interleaved = LocalGrid.awaitAll(splits);
        Sites sites = sitesOf(interleaved.get(0));
        for (int rank = 1; rank < SIZE; rank++) {
            assertThat(sites.sameSite(rank - 1, rank)).as("ranks %d and %d on one site", rank - 1, rank).isFalse();
        }
        assertThat(SIZE).isGreaterThan(PrefixScan.RELAYED_TOTALS_LIMIT);
        Queue<int[]> sent = new ConcurrentLinkedQueue<>();
        assertPrefixesSpellTheRanks(scan(interleaved, (from, to) -> 10, sent));
        int rounds = 32 - Integer.numberOfLeadingZeros(SIZE - 1);
        for (int rank = 0; rank < SIZE; rank++) {
            int sender = rank;
            assertThat(sent.stream().filter(pair -> pair[0] == sender).count()).as("messages sent by rank %d", rank)
                    .isLessThanOrEqualTo(rounds);
        }
    }

    private static List<PrefixScan.Prefixes> scan(List<Communicator> members, RankLatencies latencies, Queue<int[]> sent) {
        Sites sites = sitesOf(members.get(0));
        List<Future<PrefixScan.Prefixes>> results = new ArrayList<>();
        for (Communicator member : members) {
            Promise<PrefixScan.Prefixes> result = Promise.promise();
            member.context().runOnContext(ignored -> {
                Exchange exchange = new Exchange(new RecordingChannel(member.collectiveChannel(), sent), Operation.SCAN,
                        3, 0, "test#" + member.rank());
                exchange.run(() -> new PrefixScan(exchange, sites, latencies, 1, 0).run(token(member.rank()), ElementType.BYTE,
                        CONCATENATION)).onComplete(result);
            });
            results.add(result.future());
        }
        return results.stream().map(LocalGrid::await).toList();
    }

    private static void assertPrefixesSpellTheRanks(List<PrefixScan.Prefixes> prefixes) {
        StringBuilder expected = new StringBuilder();
        for (int rank = 0; rank < prefixes.size(); rank++) {
            PrefixScan.Prefixes result = prefixes.get(rank);
            if (rank == 0) {
                assertThat(result.exclusive()).as("exclusive prefix of rank 0").isNull();
            } else {
                assertThat(result.exclusive().toString()).as("exclusive prefix of rank %d", rank)
                        .isEqualTo(expected.toString());
            }
            expected.append(token(rank));
            assertThat(result.inclusive().toString()).as("inclusive prefix of rank %d", rank)
                    .isEqualTo(expected.toString());
        }
        // The caller owns its results: it can grow them (a slice of a message could not).
        for (PrefixScan.Prefixes result : prefixes) {
            result.inclusive().appendByte((byte) '!');
            if (result.exclusive() != null) {
                result.exclusive().appendByte((byte) '!');
            }
        }
    }

    private static Buffer token(int rank) {
        return Buffer.buffer(rank + ";");
    }

    private static Sites sitesOf(Communicator communicator) {
        return Sites.ofMembers(communicator.members());
    }
}
