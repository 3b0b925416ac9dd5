package dev.canopy.collectives.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.canopy.collectives.plan.SitePairBandwidths;
import dev.canopy.collectives.plan.SizeClasses;
import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeSeal;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
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
    private static final JobSecret SECRET = JobSecret.generate();

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
        store = new PlanStore(context, client, JOB, SECRET);
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

        // Sealed under the job's secret, so only a holder of the secret could write them: malformed, not untrusted.
        PlanStore.namespaced(client, JOB).create().forPath(PlanStore.epochPath(3),
                new ZnodeSeal(SECRET, PlanStore.MAC_LABEL, PlanStore.MAX_BODY_CHARS).seal(fullPath(3), "{\"format\":1}"));
        assertThat(Await.failure(store.read(3))).isInstanceOf(MalformedZnodeException.class)
                .hasMessageContaining("znode /canopy/jobs/store/plans/epoch-0000000003 does not hold a plan of format 1")
                .hasMessageContaining("delete the job's plans");

        PlanStore.namespaced(client, JOB).create().forPath(PlanStore.epochPath(4), store.sealed(fullPath(4),
                new PublishedPlan(5, new LatencySnapshot(List.of("a"), new double[] {0}), 1, "moved")));
        assertThat(Await.failure(store.read(4))).isInstanceOf(MalformedZnodeException.class)
                .hasMessageContaining("holds the plan of epoch 5, not of 4");
    }

    @Test
    void aPlanWithSizeClassesSurvivesTheRoundTrip() {
        PublishedPlan sized = new PublishedPlan(1, new LatencySnapshot(List.of("a", "b"), new double[] {0, 3, 3, 0}),
                SitePairBandwidths.NONE, new SizeClasses(List.of(0L, 1L << 20)), 3, "sized");
        Await.result(store.publish(sized, FENCE));
        assertThat(Await.result(store.read(1))).isEqualTo(sized);
        assertThat(new String(PlanCodec.encode(sized), StandardCharsets.UTF_8))
                .contains("\"sizeClasses\":[0,1048576]");
    }

    @Test
    void sizeClassesThatDoNotStartAtZeroOrIncreaseFailNamingTheZnode() {
        for (String bad : List.of("[5]", "[0,0]", "[0,-1]", "[0,\"x\"]", "[0,1.5]")) {
            String json = new String(PlanCodec.encode(plan(1, 15)), StandardCharsets.UTF_8)
                    .replace("}", ",\"sizeClasses\":" + bad + "}");
            assertThat(catchThrowable(
                    () -> PlanCodec.decode(json.getBytes(StandardCharsets.UTF_8), "/canopy/jobs/store/plans/epoch-1")))
                    .as(bad).isInstanceOf(MalformedZnodeException.class)
                    .hasMessageContaining("/canopy/jobs/store/plans/epoch-1").hasMessageContaining("sizeClasses");
        }
    }

    @Test
    void aPlanReadsBackOnlyAtItsOwnPathUnderItsOwnSecret() throws Exception {
        PublishedPlan plan = new PublishedPlan(6, new LatencySnapshot(List.of("a"), new double[] {0}), 1, "sealed");
        PlanStore.namespaced(client, JOB).create().forPath(PlanStore.epochPath(6), store.sealed(fullPath(6), plan));
        assertThat(Await.result(store.read(6))).isEqualTo(plan);

        PlanStore.namespaced(client, JOB).create().forPath(PlanStore.epochPath(7), store.sealed(fullPath(6), plan));
        assertThat(Await.failure(store.read(7))).as("epoch 6's znode copied to epoch 7")
                .isInstanceOf(UntrustedPlanException.class).hasMessageContaining("its MAC is wrong");
        PlanStore.namespaced(client, JOB).create().forPath(PlanStore.epochPath(8), PlanCodec.encode(plan));
        assertThat(Await.failure(store.read(8))).as("unsealed")
                .isInstanceOf(UntrustedPlanException.class).hasMessageContaining("it is not a sealed plan");
    }

    private static String fullPath(long epoch) {
        return "/canopy/jobs/" + JOB.name() + PlanStore.epochPath(epoch);
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
