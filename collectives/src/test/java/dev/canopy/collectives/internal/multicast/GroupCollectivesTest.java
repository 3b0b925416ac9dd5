package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.ThreadDelayScheduler;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import dev.canopy.multicast.internal.groups.ManagementTimes;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The policy-managed groups on real in-process nodes (embedded ZooKeeper, TCP on 127.0.0.1, each node's own
 * ZooKeeper session leasing its groups) over the emulated-ud fabric with loss: every policy x operation x size
 * class equal to the sequential reference (the root's pieces), persistent requests started many times, the leases
 * gone once the groups are closed, and two jobs at once on one switch never hearing each other.
 */
class GroupCollectivesTest {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GroupCollectivesTest.class);

    private static final String CLUSTER = """
            +
            ( &(type = grid) (name = "groups") (levels = (lan binomial) (cluster fabric_multicast)) )
            ( &(type = subjob) (label = "c") (count = 7) )
            """;
    private static final int[] SIZES = {0, 1, 100, 1500, 20_000};
    private static final GroupPolicy[] PER_CALL = {GroupPolicy.STATIC, GroupPolicy.DYNAMIC, GroupPolicy.TREE,
            GroupPolicy.AUTO};

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void everyPolicyAndOperationEqualsTheSequentialReferenceDespiteLoss() {
        long seed = Long.getLong("canopy.seed", System.nanoTime());
        Random random = new Random(seed);
        withGroups(0.05, seed, (members) -> {
            int size = members.size();
            for (GroupPolicy policy : PER_CALL) {
                for (int bytes : SIZES) {
                    String what = policy.configName() + ", " + bytes + " bytes, seed " + seed;
                    int root = random.nextInt(size);
                    int[] targets = targets(random, size, root, 1 + random.nextInt(size - 1));
                    List<Buffer> pieces = pieces(random, targets.length, bytes, bytes);
                    assertPieces(all(members, member -> member.scatter(root, targets, bytes,
                            member.communicator().rank() == root ? concatenate(pieces) : null, policy)), targets, pieces,
                            "scatter " + what);
                    Buffer message = random(random, bytes);
                    assertPieces(all(members, member -> member.bcast(root, targets, bytes,
                            member.communicator().rank() == root ? message : null, policy)), targets,
                            java.util.Collections.nCopies(targets.length, message), "bcast " + what);
                    List<Buffer> uneven = pieces(random, targets.length, 0, bytes);
                    assertPieces(all(members, member -> member.scatterv(root, targets,
                            member.communicator().rank() == root ? uneven : null, policy)), targets, uneven,
                            "scatterv " + what);
                }
            }
            for (GroupPolicy policy : new GroupPolicy[] {GroupPolicy.STATIC, GroupPolicy.TREE, GroupPolicy.AUTO}) {
                for (int bytes : new int[] {0, 7, 3000}) {
                    List<Buffer> mine = pieces(random, size, bytes, bytes);
                    List<List<Buffer>> gathered = all(members, member -> member.allgather(
                            mine.get(member.communicator().rank()), policy));
                    gathered.forEach(got -> assertThat(bytesOf(got)).as("allgather %s %d", policy, bytes)
                            .isEqualTo(bytesOf(mine)));
                }
            }
            LOG.info("{}; {}", members.get(0).costModel(), members.get(0).managementTimes());
            ManagementTimes times = members.get(0).managementTimes();
            assertThat(times.creation(GroupPolicy.DYNAMIC).count()).as(times.toString()).isPositive();
            assertThat(times.destruction(GroupPolicy.DYNAMIC).count()).isPositive();
            assertThat(times.creation(GroupPolicy.STATIC).count()).isEqualTo(size);
            return null;
        });
    }

    /**
     * {@code auto}'s time of a call is what its user pays: a target that calls late is in the root's time (a member's
     * own call time, what auto learned from before, misses it), for a multicast and for the tree, and dynamic's root
     * counts its own call (which waits for every target).
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theTimeOfACallRunsFromTheRootsStartUntilTheLastTargetHadItsPiece() {
        long lateMillis = 300;
        withGroups(0, 1, members -> {
            int[] targets = {1, 2, 4, 6};
            List<Buffer> pieces = Collections.nCopies(targets.length, Buffer.buffer(new byte[16]));
            for (GroupPolicy policy : new GroupPolicy[] {GroupPolicy.STATIC, GroupPolicy.TREE, GroupPolicy.DYNAMIC}) {
                List<Future<Optional<Double>>> times = new ArrayList<>();
                for (GroupCollectives member : members) {
                    int rank = member.communicator().rank();
                    if (rank == 6) {
                        // The last target calls late: its own call is short, the root's time is not.
                        Promise<Optional<Double>> late = Promise.promise();
                        CompletableFuture.delayedExecutor(lateMillis, TimeUnit.MILLISECONDS).execute(
                                () -> member.timed(0, targets, policy, null).onComplete(late));
                        times.add(late.future());
                    } else {
                        times.add(member.timed(0, targets, policy, rank == 0 ? pieces : null));
                    }
                }
                List<Optional<Double>> all = times.stream().map(Blocking::await).toList();
                assertThat(all.get(0)).as(policy.configName()).hasValueSatisfying(micros ->
                        assertThat(micros).isGreaterThanOrEqualTo(lateMillis * 1_000.0));
                assertThat(all.subList(1, all.size())).as("no time but the root's").allMatch(Optional::isEmpty);
            }
            return null;
        });
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void persistentRequestsSetUpOnceStartManyTimesAndReleaseTheirGroupOnClose() throws Exception {
        long seed = Long.getLong("canopy.seed", System.nanoTime());
        Random random = new Random(seed);
        withGroups(0.02, seed, members -> {
            int size = members.size();
            int[] targets = {1, 2, 4, 5, 6};
            int[] counts = {3, 0, 900, 17, 64};
            List<GroupRequest> scatters = all(members, member -> member.scattervInit(3, targets, counts,
                    GroupPolicy.PERSISTENT));
            List<GroupRequest> bcasts = all(members, member -> member.bcastInit(0, new int[] {6}, 2000, GroupPolicy.AUTO));
            List<AllgatherRequest> allgathers = all(members, member -> member.allgatherInit(40, GroupPolicy.PERSISTENT));
            long creations = members.get(3).managementTimes().creation(GroupPolicy.PERSISTENT).count();
            for (int start = 0; start < 20; start++) {
                List<Buffer> pieces = new ArrayList<>();
                for (int count : counts) {
                    pieces.add(random(random, count));
                }
                List<Optional<Buffer>> got = startEverywhere(scatters, 3, concatenate(pieces));
                assertPieces(got, targets, pieces, "persistent scatter start " + start + ", seed " + seed);
                Buffer message = random(random, 2000);
                assertPieces(startEverywhere(bcasts, 0, message), new int[] {6}, List.of(message), "persistent bcast");
                List<Buffer> mine = pieces(random, size, 40, 40);
                List<Future<List<Buffer>>> gathering = new ArrayList<>();
                for (int rank = 0; rank < size; rank++) {
                    gathering.add(allgathers.get(rank).start(mine.get(rank)));
                }
                gathering.forEach(each -> assertThat(bytesOf(Blocking.await(each))).isEqualTo(bytesOf(mine)));
            }
            // Set-up was paid once: no group was created by the starts.
            assertThat(members.get(3).managementTimes().creation(GroupPolicy.PERSISTENT).count()).isEqualTo(creations);
            assertThat(scatters.get(0).policy()).isEqualTo(GroupPolicy.PERSISTENT);
            assertThatThrownBy(() -> scatters.get(3).start(Buffer.buffer(new byte[5])))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("carries 984 bytes per start");
            scatters.stream().map(GroupRequest::closeAsync).toList().forEach(Blocking::await);
            bcasts.stream().map(GroupRequest::closeAsync).toList().forEach(Blocking::await);
            assertThatThrownBy(() -> scatters.get(3).start()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("was closed");
            assertThat(members.get(3).managementTimes().destruction(GroupPolicy.PERSISTENT).count()).isPositive();
            return null;
        });
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void groupsAreLeasedInZooKeeperAndGoneAfterClose() throws Exception {
        GridModel grid = GridConfigs.parse(CLUSTER, "groups.rsl").orElseThrow();
        ThreadDelayScheduler wire = new ThreadDelayScheduler("emulated-ud-wire");
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.perfect(), NanoClock.SYSTEM, wire);
        List<CuratorFramework> closing = new ArrayList<>();
        try (EmulatedGrid job = EmulatedGrid.start(grid, "groups-leases", 1)) {
            List<GroupCollectives> members = EmulatedGroups.open(job, grid, GroupEndpoints.emulated(fabric),
                    MulticastOptions.DEFAULTS, GroupPolicy.AUTO, new ManagementTimes());
            CuratorFramework observer = observer(job);
            closing.add(observer);
            assertThat(observer.getChildren().forPath("/canopy/multicast/slots")).as("the static group").hasSize(1);
            List<GroupRequest> requests = all(members, member -> member.scatterInit(0, new int[] {1, 2}, 1,
                    GroupPolicy.PERSISTENT));
            assertThat(observer.getChildren().forPath("/canopy/multicast/slots")).as("and a persistent one").hasSize(2);
            requests.stream().map(GroupRequest::closeAsync).toList().forEach(Blocking::await);
            assertThat(observer.getChildren().forPath("/canopy/multicast/slots")).hasSize(1);
            EmulatedGroups.close(members);
            assertThat(observer.getChildren().forPath("/canopy/multicast/slots")).isEmpty();
            assertThatThrownBy(() -> Blocking.await(members.get(1).scatter(0, new int[] {1}, 1, null, GroupPolicy.STATIC)))
                    .hasMessageContaining("closed");
        } finally {
            closing.forEach(CuratorFramework::close);
            wire.close();
        }
    }

    // ---- helpers ----

    private static <T> T withGroups(double loss, long seed, Function<List<GroupCollectives>, T> body) {
        GridModel grid = GridConfigs.parse(CLUSTER, "groups.rsl").orElseThrow();
        ThreadDelayScheduler wire = new ThreadDelayScheduler("emulated-ud-wire");
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(loss > 0 ? EmulatedUdOptions.faulty(loss, 0, 100_000, seed)
                : EmulatedUdOptions.perfect(), NanoClock.SYSTEM, wire);
        try (EmulatedGrid job = EmulatedGrid.start(grid, "groups-" + seed, 1)) {
            List<GroupCollectives> members = EmulatedGroups.open(job, grid, GroupEndpoints.emulated(fabric),
                    MulticastOptions.DEFAULTS, GroupPolicy.AUTO, new ManagementTimes());
            try {
                return body.apply(members);
            } finally {
                EmulatedGroups.close(members);
            }
        } finally {
            wire.close();
        }
    }

    private static CuratorFramework observer(EmulatedGrid job) throws InterruptedException {
        CuratorFramework client = dev.canopy.core.internal.membership.ZooKeeperSession.builder(job.zooKeeperConnectString(),
                java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(10),
                Optional.of(ZooKeeperCredentials.of(job.secret()))).build();
        client.start();
        assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
        return client;
    }

    private static <T> List<T> all(List<GroupCollectives> members, Function<GroupCollectives, Future<T>> call) {
        return members.stream().map(call).toList().stream().map(Blocking::await).toList();
    }

    private static List<Optional<Buffer>> startEverywhere(List<GroupRequest> requests, int root, Buffer data) {
        List<Future<Optional<Buffer>>> calls = new ArrayList<>();
        for (int rank = 0; rank < requests.size(); rank++) {
            calls.add(requests.get(rank).start(rank == root ? data : null));
        }
        return calls.stream().map(Blocking::await).toList();
    }

    /** Target i got pieces[i]; everyone else (the root too) got nothing. */
    private static void assertPieces(List<Optional<Buffer>> got, int[] targets, List<Buffer> pieces, String what) {
        for (int rank = 0; rank < got.size(); rank++) {
            int index = java.util.Arrays.binarySearch(targets, rank);
            if (index >= 0) {
                assertThat(got.get(rank)).as("rank %d, %s", rank, what).isPresent();
                assertThat(got.get(rank).get().getBytes()).as("rank %d, %s", rank, what)
                        .isEqualTo(pieces.get(index).getBytes());
            } else {
                assertThat(got.get(rank)).as("rank %d (not a target), %s", rank, what).isEmpty();
            }
        }
    }

    private static int[] targets(Random random, int size, int root, int count) {
        List<Integer> others = new ArrayList<>();
        for (int rank = 0; rank < size; rank++) {
            if (rank != root) {
                others.add(rank);
            }
        }
        java.util.Collections.shuffle(others, random);
        return others.subList(0, count).stream().mapToInt(Integer::intValue).sorted().toArray();
    }

    private static List<Buffer> pieces(Random random, int count, int smallest, int largest) {
        List<Buffer> pieces = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pieces.add(random(random, smallest + random.nextInt(largest - smallest + 1)));
        }
        return pieces;
    }

    private static Buffer random(Random random, int bytes) {
        byte[] data = new byte[bytes];
        random.nextBytes(data);
        return Buffer.buffer(data);
    }

    private static Buffer concatenate(List<Buffer> pieces) {
        Buffer all = Buffer.buffer();
        pieces.forEach(all::appendBuffer);
        return all;
    }

    private static List<List<Byte>> bytesOf(List<Buffer> pieces) {
        return pieces.stream().map(piece -> {
            List<Byte> bytes = new ArrayList<>();
            for (byte b : piece.getBytes()) {
                bytes.add(b);
            }
            return bytes;
        }).toList();
    }
}
