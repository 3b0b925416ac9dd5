package dev.canopy.collectives.internal.leader;

import static dev.canopy.collectives.internal.leader.LeaderGrid.AB;
import static dev.canopy.collectives.internal.leader.LeaderGrid.AC;
import static dev.canopy.collectives.internal.leader.LeaderGrid.BC;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.JobId;
import dev.canopy.core.testing.Await;
import dev.canopy.topology.internal.replan.ReplanPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The ZooKeeper server the plan leader is connected to dies: the leader's connection is SUSPENDED, it stops
 * publishing, sessions move to the surviving servers, and whoever leads afterwards continues from the
 * highest published epoch: the next plan gets epoch 2, published once.
 */
@Tag("slow")
class PlanLeaderFailoverTest {

    /** Quorum peers sync within a few ticks; on a busy 2-core machine shorter ticks make followers drop out. */
    private static final int CLUSTER_TICK_MILLIS = 1000;

    @Test
    void plansContinueWithTheNextEpochAfterTheLeadersServerDies() throws Exception {
        try (TestingCluster cluster = cluster(3);
             LeaderGrid grid = new LeaderGrid(cluster.getConnectString(), JobId.of("failover"),
                     new LeaderSettings(ReplanPolicy.DEFAULT, Duration.ofMillis(100)))) {
            grid.record(AB, 20, 10);
            grid.record(BC, 20, 10);
            grid.record(AC, 30, 10);
            grid.start();
            LeaderNode leader = grid.awaitLeader();
            grid.awaitEpoch(1);

            InstanceSpec server = cluster.findConnectionInstance(leader.client.getZookeeperClient().getZooKeeper());
            assertThat(cluster.killServer(server)).isTrue();
            // SUSPENDED: the leader stops (the latch drops leadership) until its session reconnects elsewhere.
            Await.until(() -> leader.leader.role() != PlanLeader.Role.LEADING, () -> "the leader notices its server died");
            grid.awaitLeader();
            grid.record(AC, 100, 20);

            grid.awaitEpoch(2);
            assertThat(grid.plan(2).reason()).startsWith("re-plan:").contains("a~c 15.000->50.000 ms");
            Await.until(() -> grid.nodes.stream().allMatch(node -> node.cache.latestEpoch() == 2),
                    () -> "every node's watch sees epoch 2");
            List<PublishedPlan> seen = grid.nodes.stream().map(node -> Await.result(node.cache.plan(2))).toList();
            assertThat(seen).allSatisfy(plan -> assertThat(plan).isEqualTo(seen.get(0)));
            assertThat(grid.nodes.get(0).client.getChildren().forPath("/canopy/jobs/failover/plans").stream().sorted())
                    .containsExactly("current", "epoch-0000000001", "epoch-0000000002", "leader");
        }
    }

    private static TestingCluster cluster(int servers) throws Exception {
        List<InstanceSpec> specs = new ArrayList<>();
        for (int id = 1; id <= servers; id++) {
            specs.add(new InstanceSpec(null, -1, -1, -1, true, id, CLUSTER_TICK_MILLIS, -1));
        }
        TestingCluster cluster = new TestingCluster(specs);
        cluster.start();
        return cluster;
    }
}
