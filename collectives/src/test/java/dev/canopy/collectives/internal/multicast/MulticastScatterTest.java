package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveMismatchException;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.ThreadDelayScheduler;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * scatter, scatterv and persistent requests over the multicast layer on real in-process nodes (embedded
 * ZooKeeper, TCP on 127.0.0.1) and the emulated-ud fabric with loss, each result compared with the sequential
 * reference (the root's pieces), and the path's counters showing what went by multicast.
 */
class MulticastScatterTest {

    private static final String ONE_CLUSTER = """
            +
            ( &(type = grid) (name = "scatter-cluster") (levels = (lan binomial) (cluster fabric_multicast)) )
            ( &(type = subjob) (label = "c") (count = 6) )
            """;
    private static final String TWO_SITES = """
            +
            ( &(type = grid) (name = "scatter-sites") (default_rtt_ms = 4) (levels = (heavy_wan hlot) (lan %s)) )
            ( &(type = subjob) (label = "a") (count = 3) (wan_group = "a") (site = "a") )
            ( &(type = subjob) (label = "b") (count = 3) (wan_group = "b") (site = "b") )
            """;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void scatterAndScattervGoAsOnePackedMulticastEachDespiteLoss() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        withGrid(ONE_CLUSTER, 0.05, seed, members -> {
            int collectives = 0;
            for (int root : new int[] {0, 4}) {
                for (int bytesPerRank : new int[] {0, 1, 100, 1500, 20_000}) {
                    List<Buffer> pieces = pieces(random, members.size(), bytesPerRank, bytesPerRank);
                    List<Future<Buffer>> calls = new ArrayList<>();
                    for (Collectives member : members) {
                        calls.add(member.scatter(member.rank() == root ? concatenate(pieces) : null, bytesPerRank, root));
                    }
                    assertPieces(calls, pieces, "scatter from " + root + ", " + bytesPerRank + " bytes, seed " + seed);
                    collectives++;
                }
                for (int largest : new int[] {0, 10, 3000, 40_000}) {
                    List<Buffer> pieces = pieces(random, members.size(), 0, largest);
                    List<Future<Buffer>> calls = new ArrayList<>();
                    for (Collectives member : members) {
                        calls.add(member.scatterv(member.rank() == root ? pieces : null, root));
                    }
                    assertPieces(calls, pieces, "scatterv from " + root + ", up to " + largest + " bytes, seed " + seed);
                    collectives++;
                }
            }
            assertCarriers(members, collectives, 0, seed);
            return null;
        });
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void persistentRequestsStartManyTimesAsOneBroadcastEachAcrossSitesDespiteLoss() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        withGrid(TWO_SITES.formatted("multicast"), 0.02, seed, members -> {
            int size = members.size();
            List<PersistentRequest> bcasts = await(members, member -> member.bcastInit(700, 4));
            for (int start = 0; start < 50; start++) {
                byte[] message = new byte[700];
                random.nextBytes(message);
                List<Future<Buffer>> calls = new ArrayList<>();
                for (int rank = 0; rank < size; rank++) {
                    calls.add(bcasts.get(rank).start(rank == 4 ? Buffer.buffer(message) : null));
                }
                for (int rank = 0; rank < size; rank++) {
                    assertThat(Blocking.await(calls.get(rank)).getBytes()).as("start %d, rank %d, seed %d", start, rank,
                            seed).isEqualTo(message);
                }
            }
            List<PersistentRequest> scatters = await(members, member -> member.scatterInit(333, 1));
            int[] counts = {5, 0, 1200, 17, 0, 64};
            List<PersistentRequest> scattervs = await(members, member -> member.scattervInit(
                    member.rank() == 2 || member.rank() == 5 ? counts : null, 2));
            assertThat(scatters.get(0).broadcastsEachStart()).isTrue();
            assertThat(scattervs.get(3).broadcastsEachStart()).isTrue();
            for (int start = 0; start < 5; start++) {
                List<Buffer> pieces = pieces(random, size, 333, 333);
                assertPieces(startEverywhere(scatters, 1, concatenate(pieces)), pieces, "persistent scatter, seed " + seed);
                List<Buffer> vPieces = new ArrayList<>();
                for (int count : counts) {
                    vPieces.add(randomBuffer(random, count));
                }
                assertPieces(startEverywhere(scattervs, 2, concatenate(vPieces)), vPieces,
                        "persistent scatterv, seed " + seed);
            }
            // 50 + 5 + 5 starts, one broadcast each; the inits themselves are allgathervs (no broadcast).
            assertCarriers(members, 60, 0, seed);
            scatters.forEach(PersistentRequest::close);
            assertThatThrownBy(() -> scatters.get(3).start()).isInstanceOf(IllegalStateException.class)
                    .hasMessage("persistent scatter from root 1 was closed; init a new persistent request to start it again");
            // The root gives the wrong number of bytes: every member fails, none waits for ever.
            List<Future<Buffer>> wrong = startEverywhere(scattervs, 2, Buffer.buffer(new byte[10]));
            assertThatThrownBy(() -> Blocking.await(wrong.get(2))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("persistent scatterv from root 2 carries 1286 bytes per start; the root gave 10");
            for (int rank = 0; rank < size; rank++) {
                if (rank != 2) {
                    int member = rank;
                    assertThatThrownBy(() -> Blocking.await(wrong.get(member))).as("rank %d", member)
                            .hasMessageContaining("received 10 bytes announced as 10, but the request carries 1286");
                }
            }
            // The other requests carry on after one is closed.
            assertPieces(startEverywhere(scattervs, 2, concatenate(pieces(counts))), pieces(counts), "after close");
            return null;
        });
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void mismatchedInitsFailEveryMemberWithTheFirstDifferingRankNamed() {
        withGrid(ONE_CLUSTER, 0.0, 1, members -> {
            List<Future<PersistentRequest>> inits = new ArrayList<>();
            for (Collectives member : members) {
                inits.add(member.scatterInit(member.rank() == 3 ? 16 : 8, 0));
            }
            for (Future<PersistentRequest> init : inits) {
                assertThatThrownBy(() -> Blocking.await(init)).isInstanceOf(CollectiveMismatchException.class)
                        .hasMessage("persistent request init: rank 3 called scatterInit(16 bytes per rank, root 0)"
                                + " while rank 0 (the root) called scatterInit(8 bytes per rank, root 0); every member must"
                                + " init the same persistent collective with matching arguments, in the same order");
            }
            inits.clear();
            for (Collectives member : members) {
                inits.add(member.rank() == 5 ? member.bcastInit(8, 0) : member.scatterInit(8, 0));
            }
            for (Future<PersistentRequest> init : inits) {
                assertThatThrownBy(() -> Blocking.await(init)).isInstanceOf(CollectiveMismatchException.class).hasMessageContaining(
                        "rank 5 called bcastInit(8 bytes, root 0) while rank 0 (the root) called scatterInit(8 bytes per rank");
            }
            inits.clear();
            int[] counts = {1, 2, 3, 4, 5, 6};
            int[] other = {1, 2, 3, 4, 5, 7};
            for (Collectives member : members) {
                inits.add(member.scattervInit(member.rank() == 4 ? other : member.rank() == 2 ? counts : null, 2));
            }
            for (Future<PersistentRequest> init : inits) {
                assertThatThrownBy(() -> Blocking.await(init)).isInstanceOf(CollectiveMismatchException.class).hasMessageContaining(
                        "rank 4 called scattervInit(counts [1, 2, 3, 4, 5, 7], root 2) while rank 2 (the root) called"
                                + " scattervInit(counts [1, 2, 3, 4, 5, 6], root 2)");
            }
            // Two requests started in swapped orders at rank 5: it finds the other request's data, both times.
            List<PersistentRequest> small = await(members, member -> member.bcastInit(8, 0));
            List<PersistentRequest> large = await(members, member -> member.bcastInit(16, 0));
            List<Future<Buffer>> firsts = new ArrayList<>();
            List<Future<Buffer>> seconds = new ArrayList<>();
            for (int rank = 0; rank < members.size(); rank++) {
                boolean swapped = rank == 5;
                firsts.add((swapped ? large : small).get(rank).start(rank == 0 ? Buffer.buffer(new byte[8]) : null));
                seconds.add((swapped ? small : large).get(rank).start(rank == 0 ? Buffer.buffer(new byte[16]) : null));
            }
            for (int rank = 0; rank < 5; rank++) {
                assertThat(Blocking.await(firsts.get(rank)).length()).isEqualTo(8);
                assertThat(Blocking.await(seconds.get(rank)).length()).isEqualTo(16);
            }
            for (Future<Buffer> start : List.of(firsts.get(5), seconds.get(5))) {
                assertThatThrownBy(() -> Blocking.await(start)).isInstanceOf(CollectiveMismatchException.class)
                        .hasMessageContaining("received the data of another persistent request");
            }
            // The communicator's sequence is intact: the next collective works.
            List<Buffer> pieces = pieces(new Random(2), members.size(), 4, 4);
            List<Future<Buffer>> calls = new ArrayList<>();
            for (Collectives member : members) {
                calls.add(member.scatter(member.rank() == 0 ? concatenate(pieces) : null, 4, 0));
            }
            assertPieces(calls, pieces, "after the failed inits");
            return null;
        });
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void autoPacksSmallPiecesAndLeavesLargeOnesToTheTreeScatter() {
        withGrid(TWO_SITES.formatted("auto"), 0.0, 1, members -> {
            MulticastPath path = (MulticastPath) members.get(0).broadcastPath();
            long crossover = path.scatterChoice().crossoverBytes(members.size());
            assertThat(crossover).as(path.costModel().orElseThrow().toString()).isPositive();
            Random random = new Random(5);
            List<Buffer> small = pieces(random, members.size(), 8, 8);
            List<Buffer> large = pieces(random, members.size(), (int) crossover, (int) crossover);
            List<Future<Buffer>> calls = new ArrayList<>();
            for (Collectives member : members) {
                calls.add(member.scatter(member.rank() == 3 ? concatenate(small) : null, 8, 3));
            }
            assertPieces(calls, small, "8 bytes");
            calls.clear();
            for (Collectives member : members) {
                calls.add(member.scatter(member.rank() == 3 ? concatenate(large) : null, (int) crossover, 3));
            }
            assertPieces(calls, large, crossover + " bytes");
            // scatterv: the root decides; large pieces go by a marker multicast and the tree scatter.
            calls.clear();
            for (Collectives member : members) {
                calls.add(member.scatterv(member.rank() == 0 ? large : null, 0));
            }
            assertPieces(calls, large, "scatterv of " + crossover + " bytes");
            assertCarriers(members, 2, 0, 5);
            List<PersistentRequest> requests = await(members, member -> member.scatterInit((int) crossover, 0));
            assertThat(requests.get(2).broadcastsEachStart()).isFalse();
            assertPieces(startEverywhere(requests, 0, concatenate(large)), large, "persistent scatter by the tree");
            return null;
        });
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void onPointToPointTreesPersistentRequestsUseTheTrees() {
        GridModel grid = GridConfigs.parse(ONE_CLUSTER.replace("fabric_multicast", "binomial"), "p2p.rsl").orElseThrow();
        try (EmulatedGrid job = EmulatedGrid.start(grid, "persistent-p2p", 1)) {
            List<Collectives> members = job.world().stream().map(member -> new Collectives(member,
                    ConfiguredPlans.of(member.members(), grid), CollectiveSettings.defaults())).toList();
            int[] counts = {3, 0, 9, 1, 4, 2};
            List<PersistentRequest> requests = await(members, member -> member.scattervInit(member.rank() == 1 ? counts
                    : null, 1));
            assertThat(requests.get(0).broadcastsEachStart()).isFalse();
            for (int start = 0; start < 3; start++) {
                assertPieces(startEverywhere(requests, 1, concatenate(pieces(counts))), pieces(counts), "start " + start);
            }
            List<Future<Buffer>> wrong = startEverywhere(requests, 1, Buffer.buffer(new byte[3]));
            for (int rank = 0; rank < members.size(); rank++) {
                int member = rank;
                assertThatThrownBy(() -> Blocking.await(wrong.get(member))).as("rank %d", member).isNotNull();
            }
            assertPieces(startEverywhere(requests, 1, concatenate(pieces(counts))), pieces(counts), "after the failure");
        }
    }

    private static <T> T withGrid(String rsl, double loss, long seed, Function<List<Collectives>, T> body) {
        GridModel grid = GridConfigs.parse(rsl, "scatter.rsl").orElseThrow();
        ThreadDelayScheduler wire = new ThreadDelayScheduler("emulated-ud-wire");
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(loss > 0 ? EmulatedUdOptions.faulty(loss, 0, 100_000, seed)
                : EmulatedUdOptions.perfect(), NanoClock.SYSTEM, wire);
        try (EmulatedGrid job = EmulatedGrid.start(grid, "scatter-" + seed, 1)) {
            List<Future<Collectives>> opening = new ArrayList<>();
            for (Communicator member : job.world()) {
                Collectives collectives = new Collectives(member, ConfiguredPlans.of(member.members(), grid),
                        CollectiveSettings.defaults());
                opening.add(BroadcastLayers.plugInto(collectives, grid.levels(), MulticastFabrics.emulated(fabric),
                        MulticastOptions.DEFAULTS));
            }
            List<Collectives> members = opening.stream().map(Blocking::await).toList();
            members.forEach(member -> assertThat(member.broadcastPath()).isInstanceOf(MulticastPath.class));
            try {
                return body.apply(members);
            } finally {
                members.forEach(member -> member.broadcastPath().close());
            }
        } finally {
            wire.close();
        }
    }

    private static List<PersistentRequest> await(List<Collectives> members,
            Function<Collectives, Future<PersistentRequest>> init) {
        return members.stream().map(init).toList().stream().map(Blocking::await).toList();
    }

    private static List<Future<Buffer>> startEverywhere(List<PersistentRequest> requests, int root, Buffer data) {
        List<Future<Buffer>> calls = new ArrayList<>();
        for (int rank = 0; rank < requests.size(); rank++) {
            calls.add(requests.get(rank).start(rank == root ? data : null));
        }
        return calls;
    }

    private static void assertCarriers(List<Collectives> members, long multicast, long tree, long seed) {
        for (Collectives member : members) {
            MulticastPath.Stats stats = Blocking.await(((MulticastPath) member.broadcastPath()).stats());
            assertThat(stats.multicastBcasts()).as("rank %d: broadcasts by multicast, seed %d", member.rank(), seed)
                    .isEqualTo(multicast);
            assertThat(stats.treeBcasts()).as("rank %d, seed %d", member.rank(), seed).isEqualTo(tree);
        }
    }

    private static void assertPieces(List<Future<Buffer>> calls, List<Buffer> pieces, String what) {
        for (int rank = 0; rank < calls.size(); rank++) {
            assertThat(Blocking.await(calls.get(rank)).getBytes()).as("rank %d, %s", rank, what)
                    .isEqualTo(pieces.get(rank).getBytes());
        }
    }

    private static List<Buffer> pieces(Random random, int ranks, int smallest, int largest) {
        List<Buffer> pieces = new ArrayList<>();
        for (int rank = 0; rank < ranks; rank++) {
            pieces.add(randomBuffer(random, smallest + random.nextInt(largest - smallest + 1)));
        }
        return pieces;
    }

    /** Pieces of the given lengths, each byte its rank and position. */
    private static List<Buffer> pieces(int[] counts) {
        List<Buffer> pieces = new ArrayList<>();
        for (int rank = 0; rank < counts.length; rank++) {
            Buffer piece = Buffer.buffer();
            for (int i = 0; i < counts[rank]; i++) {
                piece.appendByte((byte) (rank * 31 + i));
            }
            pieces.add(piece);
        }
        return pieces;
    }

    private static Buffer randomBuffer(Random random, int bytes) {
        byte[] data = new byte[bytes];
        random.nextBytes(data);
        return Buffer.buffer(data);
    }

    private static Buffer concatenate(List<Buffer> pieces) {
        Buffer all = Buffer.buffer();
        pieces.forEach(all::appendBuffer);
        return all;
    }
}
