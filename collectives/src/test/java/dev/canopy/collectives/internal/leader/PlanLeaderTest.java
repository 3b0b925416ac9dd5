package dev.canopy.collectives.internal.leader;

import static dev.canopy.collectives.internal.leader.LeaderGrid.AB;
import static dev.canopy.collectives.internal.leader.LeaderGrid.AC;
import static dev.canopy.collectives.internal.leader.LeaderGrid.BC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlan;
import dev.canopy.topology.internal.replan.ReplanDecision;
import dev.canopy.topology.internal.replan.ReplanPolicy;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Three nodes elect a plan leader in a real ZooKeeper and follow the plans it publishes from their forecasts. */
class PlanLeaderTest {

    private TestingServer zooKeeper;
    private LeaderGrid grid;

    @BeforeEach
    void startGrid() throws Exception {
        // Short ticks, so that sessions of a few seconds are allowed.
        zooKeeper = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1), true);
        grid = new LeaderGrid(zooKeeper.getConnectString(), JobId.of("plans"),
                new LeaderSettings(ReplanPolicy.DEFAULT, Duration.ofMillis(100)));
        grid.record(AB, 20, 10);
        grid.record(BC, 20, 10);
        grid.record(AC, 30, 10);
        grid.start();
    }

    @AfterEach
    void stopGrid() throws Exception {
        grid.close();
        zooKeeper.close();
    }

    @Test
    void oneOfThreeNodesLeadsAndPublishesEpochOneWhichEveryNodeReadsIdentically() {
        grid.awaitLeader();
        grid.awaitEpoch(1);
        PublishedPlan first = grid.plan(1);
        assertThat(first.reason()).startsWith("first plan of the job");
        // Direct a -> c (15 ms one way) beats the relay through b (20 ms).
        assertThat(aRootedPlan(first).parent("c")).contains("a");

        List<HierarchicalPlan> seen = grid.nodes.stream()
                .map(node -> Await.result(node.cache.plan(1)).collectivePlan(grid.members, LeaderGrid.PLANNER).hierarchicalPlan(0))
                .toList();
        assertThat(seen).allSatisfy(plan -> assertThat(plan).isEqualTo(seen.get(0)));
        Await.until(() -> grid.nodes.stream().allMatch(node -> node.cache.latestEpoch() == 1),
                () -> "every node's watch sees epoch 1");
    }

    @Test
    void aSlowLinkTriggersTheNextEpochWithTheReasonAndTheLinkThatMoved() {
        grid.awaitLeader();
        grid.awaitEpoch(1);

        grid.record(AC, 100, 20);

        grid.awaitEpoch(2);
        PublishedPlan second = grid.plan(2);
        assertThat(second.reason()).startsWith("re-plan:").contains("a~c 15.000->50.000 ms");
        assertThat(aRootedPlan(second).parent("c")).contains("b");
        assertThat(second.predictedCompletionMs()).isCloseTo(20.04, within(1e-9));
        Await.until(() -> grid.nodes.stream().allMatch(node -> node.cache.latestEpoch() == 2),
                () -> "every node's watch sees epoch 2");
    }

    @Test
    void noiseBelowTheTriggerFractionNeverReplans() {
        LeaderNode leader = grid.awaitLeader();
        grid.awaitEpoch(1);
        // a~c between 42 and 44 ms: the relay through b (20.04 ms) beats the direct link (21.04 to 22.04 ms)
        // by 4.8 % to 9.1 %. A better tree exists, but not by the 10 % the policy asks for.
        for (int i = 0; i < 40; i++) {
            grid.record(AC, i % 2 == 0 ? 42 : 44, 1);
        }
        // Evaluations run one at a time, so the second one after the last sample surely started after it.
        int seen = leader.decisions.size();
        Await.until(() -> leader.decisions.size() >= seen + 2, () -> "two more evaluations after the noise");

        assertThat(leader.decisions).isNotEmpty()
                .allSatisfy(decision -> assertThat(decision.verdict()).isEqualTo(ReplanDecision.Verdict.KEEP));
        assertThat(leader.decisions.get(leader.decisions.size() - 1).reason()).startsWith("keep: new plan 20.040 ms");
        assertThat(grid.currentEpoch()).isEqualTo(1);
    }

    @Test
    void whenTheLeadersSessionExpiresAnotherNodeLeadsAndContinuesFromTheHighestEpoch() throws Exception {
        LeaderNode first = grid.awaitLeader();
        grid.awaitEpoch(1);
        grid.record(AC, 100, 20);
        grid.awaitEpoch(2);

        first.client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();

        Await.until(() -> grid.nodes.stream().anyMatch(node -> node != first && node.leads()),
                () -> "another node takes over plan leadership");
        Await.until(() -> first.leader.role() != PlanLeader.Role.LEADING, () -> "the expired leader stops leading");
        LeaderNode second = grid.awaitLeader();
        assertThat(second).isNotSameAs(first);

        grid.record(AC, 30, 40);

        grid.awaitEpoch(3);
        assertThat(grid.plan(3).reason()).startsWith("re-plan:").contains("links moved since epoch 2: [a~c");
        assertThat(aRootedPlan(grid.plan(3)).parent("c")).contains("a");
        assertThat(zooKeeperChildren()).containsExactly("current", "epoch-0000000001", "epoch-0000000002",
                "epoch-0000000003", "leader");
    }

    @Test
    void aLeaderTakingOverAnUntrustedHighestEpochPublishesTheNextEpochOverIt() throws Exception {
        LeaderNode first = grid.awaitLeader();
        grid.awaitEpoch(1);
        PublishedPlan sealed = grid.plan(1);
        // An insider with the job's ZooKeeper identity but another secret makes its plan current.
        PlanStore forger = new PlanStore(first.context, first.client, JobId.of("plans"), JobSecret.generate());
        CuratorFramework plans = PlanStore.namespaced(first.client, JobId.of("plans"));
        plans.create().forPath(PlanStore.epochPath(2), forger.sealed("/canopy/jobs/plans" + PlanStore.epochPath(2),
                new PublishedPlan(2, sealed.latencies(), sealed.bandwidths(), 1, "forged")));
        plans.setData().forPath(PlanStore.CURRENT, PlanStore.encodeEpoch(2));
        assertThat(Await.failure(grid.nodes.get(0).store.read(2))).isInstanceOf(UntrustedPlanException.class);

        first.client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();

        grid.awaitEpoch(3);
        assertThat(grid.plan(3).reason()).as("planned afresh, not from the forgery").startsWith("first plan of the job");
        Await.until(() -> grid.nodes.stream().allMatch(node -> node.cache.latestEpoch() == 3),
                () -> "every node's watch sees epoch 3");
    }

    @Test
    void theCacheServesTheEpochACollectiveCarriesAfterNewerOnesArePublished() {
        grid.awaitLeader();
        grid.awaitEpoch(1);
        LeaderNode node = grid.nodes.get(2);
        PublishedPlan first = Await.result(node.cache.plan(1));

        grid.record(AC, 100, 20);
        grid.awaitEpoch(2);
        Await.until(() -> node.cache.latestEpoch() == 2, () -> "the watch sees epoch 2");

        assertThat(Await.result(node.cache.plan(1))).isSameAs(first);
        assertThat(aRootedPlan(Await.result(node.cache.plan(1))).parent("c")).contains("a");
        assertThat(aRootedPlan(Await.result(node.cache.plan(2))).parent("c")).contains("b");
    }

    private List<String> zooKeeperChildren() throws Exception {
        return grid.nodes.get(1).client.getChildren().forPath("/canopy/jobs/plans/plans").stream().sorted().toList();
    }

    private HierarchicalPlan aRootedPlan(PublishedPlan plan) {
        return plan.collectivePlan(grid.members, LeaderGrid.PLANNER).hierarchicalPlan(0);
    }
}
