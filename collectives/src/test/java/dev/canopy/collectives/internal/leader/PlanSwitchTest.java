package dev.canopy.collectives.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.node.JobId;
import dev.canopy.core.testing.Await;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlan;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

/**
 * Real collectives switch to the leader's newest epoch together: members that heard of it at different
 * times (one never did) agree on it inside a collective and then broadcast along its trees.
 */
class PlanSwitchTest {

    private static final int SIZE = 6;
    private static final JobId JOB = JobId.of("switch");
    private static final String FENCE = "/plans/leader/fence";

    @Test
    void everyMemberAdoptsTheSameNewestEpochAndRunsCollectivesOnIt() throws Exception {
        try (TestingServer zooKeeper = new TestingServer(true); LocalGrid grid = LocalGrid.start("plan-switch", SIZE)) {
            List<CuratorFramework> clients = new ArrayList<>();
            List<PlanCache> caches = new ArrayList<>();
            try {
                switchAndBroadcast(zooKeeper, grid, clients, caches);
            } finally {
                caches.forEach(PlanCache::close);
                clients.forEach(CuratorFramework::close);
            }
        }
    }

    private static void switchAndBroadcast(TestingServer zooKeeper, LocalGrid grid, List<CuratorFramework> clients,
            List<PlanCache> caches) throws Exception {
        List<Communicator> world = grid.world();
        List<String> names = world.get(0).members().stream().map(TopologyPlan::nameOf).toList();
        for (Communicator member : world) {
            CuratorFramework client = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100));
            client.start();
            clients.add(client);
            caches.add(new PlanCache(member.context(), client, JOB, new PlanStore(member.context(), client, JOB, grid.secret()), 4));
        }
        caches.subList(1, SIZE).forEach(PlanCache::start); // rank 0 never hears of a new epoch by itself
        PlanStore publisher = new PlanStore(world.get(0).context(), clients.get(0), JOB, grid.secret());
        Await.result(publisher.ensureCreated());
        PlanStore.namespaced(clients.get(0), JOB).create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(FENCE);
        Await.result(publisher.publish(new PublishedPlan(1, snapshot(names, 10), 20, "first"), FENCE));
        Await.result(publisher.publish(new PublishedPlan(2, snapshot(names, 100), 40, "w0~w1 slowed"), FENCE));
        Await.until(() -> caches.subList(1, SIZE).stream().allMatch(cache -> cache.latestEpoch() == 2),
                () -> "ranks 1.. see epoch 2");

        List<Future<Collectives>> switching = new ArrayList<>();
        for (int rank = 0; rank < SIZE; rank++) {
            Collectives configured = new Collectives(world.get(rank),
                    new TopologyPlan(world.get(rank).members(), LeaderGrid.PLANNER, snapshot(names, 10), 1_000_000),
                    CollectiveSettings.defaults());
            switching.add(new PlanSwitch(caches.get(rank), LeaderGrid.PLANNER).adoptNewest(configured));
        }
        List<Collectives> switched = switching.stream().map(Await::result).toList();

        List<HierarchicalPlan> fromRankZero = switched.stream()
                .map(collectives -> ((TopologyPlan) collectives.plan()).hierarchicalPlan(0)).toList();
        assertThat(switched).allSatisfy(collectives -> assertThat(collectives.plan().epoch()).isEqualTo(2));
        assertThat(fromRankZero).allSatisfy(plan -> assertThat(plan).isEqualTo(fromRankZero.get(0)));
        List<Future<Buffer>> received = switched.stream()
                .map(collectives -> collectives.bcast(collectives.rank() == 0 ? Buffer.buffer("epoch 2") : Buffer.buffer(), 0))
                .toList();
        assertThat(received).allSatisfy(bcast -> assertThat(Await.result(bcast).toString()).isEqualTo("epoch 2"));
    }

    /** 1 ms inside a wan group, 10 ms between groups, {@code w0w1Ms} between wan groups w0 and w1. */
    private static LatencySnapshot snapshot(List<String> names, double w0w1Ms) {
        return LatencySnapshot.of(names, (from, to) -> {
            int a = Integer.parseInt(from.substring(1)) % 3;
            int b = Integer.parseInt(to.substring(1)) % 3;
            if (a == b) {
                return 1;
            }
            return a + b == 1 ? w0w1Ms : 10;
        });
    }
}
