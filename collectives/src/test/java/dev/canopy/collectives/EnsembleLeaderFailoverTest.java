package dev.canopy.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.grid.GridCommunicators;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.membership.MembershipEvent;
import dev.canopy.core.internal.membership.testing.ZooKeeperServers;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A four-node job on a three-server ZooKeeper ensemble loses the ensemble's leader: every node's
 * ZooKeeper connection is SUSPENDED while the other two servers elect a new leader, then RECONNECTED (never
 * LOST); no member leaves or is taken for failed; an allreduce started during the election completes, and
 * one started afterwards too. (Membership alone through the same failover: core's
 * {@code MembershipFailoverTest}.)
 */
@Tag("slow")
@Timeout(120)
class EnsembleLeaderFailoverTest {

    private static final int SIZE = 4;
    /** Longer than an election on a busy machine (1 s ticks), within the servers' 2 to 20 tick bounds. */
    private static final Duration SESSION = Duration.ofSeconds(10);
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void aJobKeepsEveryMemberAndItsCollectivesThroughTheLossOfTheEnsemblesLeader() throws Exception {
        Vertx vertx = Vertx.vertx();
        List<CanopyNode> nodes = new ArrayList<>();
        try (TestingCluster cluster = ZooKeeperServers.cluster(3)) {
            try {
                JobSecret secret = JobSecret.generate();
                List<Future<CanopyNode>> starting = new ArrayList<>();
                for (int i = 0; i < SIZE; i++) {
                    Coordinates coordinates = new Coordinates("wan", "site-" + i % 2, "lan-" + i % 2, "c-" + i % 2, "h" + i);
                    starting.add(CanopyNode.start(vertx, NodeOptions.of(JobId.of("ensemble-failover"), NodeId.of("n" + i),
                            coordinates, SIZE, cluster.getConnectString(), secret).withSessionTimeout(SESSION)));
                }
                starting.forEach(node -> nodes.add(Await.result(node, WAIT)));
                List<Queue<ConnectionState>> states = new ArrayList<>();
                Queue<MembershipEvent> departures = new ConcurrentLinkedQueue<>();
                for (CanopyNode node : nodes) {
                    Queue<ConnectionState> seen = new ConcurrentLinkedQueue<>();
                    node.zooKeeper().getConnectionStateListenable().addListener((client, state) -> seen.add(state));
                    states.add(seen);
                    node.onMembershipEvent(event -> {
                        if (event.kind() == MembershipEvent.Kind.LEFT) {
                            departures.add(event);
                        }
                    });
                }
                List<Communicator> world = new ArrayList<>(nodes.stream().map(CanopyNode::join).toList().stream()
                        .map(joined -> Await.result(joined, WAIT)).toList());
                world.sort(Comparator.comparingInt(Communicator::rank));
                List<Collectives> collectives = world.stream().map(member -> new Collectives(member,
                        GridCommunicators.planFor(member, TreeAlgorithm.HLOT), CollectiveSettings.defaults())).toList();
                assertSums(allreduce(collectives, 1), 1);

                InstanceSpec leader = ZooKeeperServers.leaderOf(cluster);
                assertThat(cluster.killServer(leader)).isTrue();
                List<Future<long[]>> duringElection = allreduce(collectives, 2);

                Await.until(WAIT, () -> states.stream().allMatch(seen -> seen.contains(ConnectionState.SUSPENDED)
                        && seen.contains(ConnectionState.RECONNECTED)), () -> "every client suspended and reconnected: "
                        + states);
                assertSums(duringElection, 2);
                assertSums(allreduce(collectives, 3), 3);

                assertThat(states).allSatisfy(seen -> assertThat(seen).doesNotContain(ConnectionState.LOST));
                assertThat(departures).isEmpty();
                assertThat(nodes).allSatisfy(node -> assertThat(node.state()).isEqualTo(CanopyNode.State.JOINED));
                assertThat(nodes.get(0).zooKeeper().getChildren().forPath("/canopy/jobs/ensemble-failover/members"))
                        .containsExactlyInAnyOrder("n0", "n1", "n2", "n3");
            } finally {
                nodes.forEach(node -> LocalGrid.awaitOutcome(node.close()));
            }
        } finally {
            Await.result(vertx.close(), WAIT);
        }
    }

    /** Every member adds (round, its rank). */
    private static List<Future<long[]>> allreduce(List<Collectives> collectives, int round) {
        return collectives.stream().map(member -> member.typed(ArrayType.LONGS)
                .allreduce(new long[] {round, member.rank()}, BuiltInOp.SUM)).toList();
    }

    private static void assertSums(List<Future<long[]>> sums, int round) {
        for (Future<long[]> sum : sums) {
            assertThat(LocalGrid.await(sum)).containsExactly((long) round * SIZE, (long) SIZE * (SIZE - 1) / 2);
        }
    }
}
