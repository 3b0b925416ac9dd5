package dev.canopy.collectives.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.node.JobId;
import dev.canopy.core.testing.Await;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Plans in a real ZooKeeper: fenced, never overwritten, served by epoch from a bounded cache. */
class PlanStoreTest {

    private static final JobId JOB = JobId.of("store");
    private static final String FENCE = "/plans/leader/fence";

    private TestingServer zooKeeper;
    private Vertx vertx;
    private CuratorFramework client;
    private Context context;
    private PlanStore store;

    @BeforeEach
    void connect() throws Exception {
        zooKeeper = new TestingServer(true);
        vertx = Vertx.vertx();
        context = vertx.getOrCreateContext();
        client = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100));
        client.start();
        store = new PlanStore(context, client, JOB);
        Await.result(store.ensureCreated());
        PlanStore.namespaced(client, JOB).create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(FENCE);
    }

    @AfterEach
    void disconnect() throws Exception {
        client.close();
        Await.result(vertx.close());
        zooKeeper.close();
    }

    @Test
    void publishingMovesCurrentAndNeverOverwritesAnEpoch() {
        assertThat(Await.result(store.currentEpoch())).isZero();
        assertThat(Await.result(store.publish(plan(1, 15), FENCE))).isEqualTo(PlanStore.PublishOutcome.PUBLISHED);
        assertThat(Await.result(store.currentEpoch())).isEqualTo(1);

        assertThat(Await.result(store.publish(plan(1, 99), FENCE))).isEqualTo(PlanStore.PublishOutcome.EPOCH_TAKEN);
        assertThat(Await.result(store.read(1))).isEqualTo(plan(1, 15));
        assertThat(Await.result(store.currentEpoch())).isEqualTo(1);
    }

    @Test
    void epochsGoUpByOneAndAPrunedEpochIsNeverWrittenAgain() throws Exception {
        assertThat(Await.result(store.publish(plan(2, 15), FENCE))).as("skipping epoch 1")
                .isEqualTo(PlanStore.PublishOutcome.EPOCH_TAKEN);
        for (long epoch = 1; epoch <= 20; epoch++) {
            assertThat(Await.result(store.publish(plan(epoch, 15), FENCE))).isEqualTo(PlanStore.PublishOutcome.PUBLISHED);
        }

        assertThat(Await.result(store.pruneBefore(20 - PlanStore.RETAINED_EPOCHS + 1))).isEqualTo(4);

        assertThat(PlanStore.namespaced(client, JOB).getChildren().forPath(PlanStore.PLANS))
                .filteredOn(child -> child.startsWith("epoch-")).hasSize(PlanStore.RETAINED_EPOCHS)
                .doesNotContain("epoch-0000000004").contains("epoch-0000000005", "epoch-0000000020");
        assertThat(Await.result(store.publish(plan(3, 99), FENCE))).as("a stale leader re-using pruned epoch 3")
                .isEqualTo(PlanStore.PublishOutcome.EPOCH_TAKEN);
        assertThat(PlanStore.namespaced(client, JOB).checkExists().forPath(PlanStore.epochPath(3))).isNull();
        assertThat(Await.result(store.currentEpoch())).isEqualTo(20);
    }

    @Test
    void aPublisherWhoseFenceIsGoneCannotPublish() throws Exception {
        PlanStore.namespaced(client, JOB).delete().forPath(FENCE);

        assertThat(Await.result(store.publish(plan(1, 15), FENCE))).isEqualTo(PlanStore.PublishOutcome.NOT_LEADER);
        assertThat(Await.result(store.currentEpoch())).isZero();
        assertThat(PlanStore.namespaced(client, JOB).checkExists().forPath(PlanStore.epochPath(1))).isNull();
    }

    @Test
    void aPlanSurvivesTheRoundTripWithUnmeasuredLinks() {
        PublishedPlan withHole = new PublishedPlan(1, new LatencySnapshot(List.of("a", "b"),
                new double[] {0, Double.POSITIVE_INFINITY, 12.5, 0}), 12.5, "reason with \"quotes\"");
        Await.result(store.publish(withHole, FENCE));

        assertThat(Await.result(store.read(1))).isEqualTo(withHole);
    }

    @Test
    void unknownAndCorruptEpochsFailNamingTheZnode() throws Exception {
        assertThat(Await.failure(store.read(9))).hasMessageContaining("no plan of epoch 9 at /canopy/jobs/store/plans/epoch-0000000009");

        PlanStore.namespaced(client, JOB).create().forPath(PlanStore.epochPath(3), "{\"format\":1}".getBytes(StandardCharsets.UTF_8));
        assertThat(Await.failure(store.read(3))).isInstanceOf(MalformedZnodeException.class)
                .hasMessageContaining("znode /canopy/jobs/store/plans/epoch-0000000003 does not hold a plan of format 1")
                .hasMessageContaining("delete the job's plans");

        PlanStore.namespaced(client, JOB).create().forPath(PlanStore.epochPath(4), PlanCodec.encode(
                new PublishedPlan(5, new LatencySnapshot(List.of("a"), new double[] {0}), 1, "moved")));
        assertThat(Await.failure(store.read(4))).isInstanceOf(MalformedZnodeException.class)
                .hasMessageContaining("holds the plan of epoch 5, not of 4");
    }

    @Test
    void theCacheServesACachedEpochEvenAfterItsZnodeIsGoneAndFollowsTheCurrentPointer() throws Exception {
        PlanCache cache = new PlanCache(context, client, JOB, store, 4);
        cache.start();
        try {
            Await.result(store.publish(plan(1, 15), FENCE));
            PublishedPlan first = Await.result(cache.plan(1));
            PlanStore.namespaced(client, JOB).delete().forPath(PlanStore.epochPath(1));

            Await.result(store.publish(plan(2, 20), FENCE));
            Await.until(() -> cache.latestEpoch() == 2, () -> "the watch sees epoch 2, saw " + cache.latestEpoch());

            assertThat(Await.result(cache.plan(1))).isSameAs(first);
            assertThat(Await.result(cache.plan(2))).isEqualTo(plan(2, 20));
            assertThat(Await.failure(cache.plan(5))).hasMessageContaining("no plan of epoch 5");
        } finally {
            cache.close();
        }
        assertThat(Await.failure(cache.plan(1))).hasMessageContaining("plan cache is closed");
    }

    private static PublishedPlan plan(long epoch, double acOneWayMs) {
        return new PublishedPlan(epoch, new LatencySnapshot(List.of("a", "b", "c"),
                new double[] {0, 10, acOneWayMs, 10, 0, 10, acOneWayMs, 10, 0}), acOneWayMs, "test plan " + epoch);
    }
}
