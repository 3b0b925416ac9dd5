package dev.canopy.collectives.internal.timing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.CollectiveObserver.Observation;
import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import io.vertx.core.Vertx;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A member publishes its timings only while a dashboard watches, and writes only what changed. */
class TimingsPublisherTest {

    private static final JobId JOB = JobId.of("published");
    private static final String PATH = TimingsZnode.memberPath(JOB, "p0");

    private final JobSecret secret = JobSecret.generate();
    private final OperationTimings timings = new OperationTimings();
    private TestingServer zooKeeper;
    private CuratorFramework client;
    private Vertx vertx;
    private TimingsPublisher publisher;

    @BeforeEach
    void start() throws Exception {
        zooKeeper = new TestingServer(true);
        client = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100));
        client.start();
        client.create().creatingParentsIfNeeded().forPath("/canopy/jobs/" + JOB.name());
        vertx = Vertx.vertx();
        // A long interval: the test publishes by hand.
        publisher = TimingsPublisher.start(vertx, client, JOB, "p0", 0, timings, new TimingsZnode(secret), Duration.ofHours(1));
    }

    @AfterEach
    void stop() throws Exception {
        Await.result(publisher.close());
        Await.result(vertx.close());
        client.close();
        zooKeeper.close();
    }

    @Test
    void nothingIsWrittenUntilADashboardWatchesThenOnlyChanges() throws Exception {
        runBcast(0);
        Await.result(publisher.publish());
        assertThat(client.checkExists().forPath(PATH)).as("nobody watches").isNull();

        client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                .forPath(TimingsZnode.dashboardsPath(JOB) + "/dashboard-");
        Await.result(publisher.publish());
        TimingsZnode.MemberTimings read = new TimingsZnode(secret).decode(JOB, "p0", client.getData().forPath(PATH))
                .orElseThrow();
        assertThat(read.operations()).extracting(OperationTiming::sequence).containsExactly(0L);

        Stat before = client.checkExists().forPath(PATH);
        Await.result(publisher.publish());
        assertThat(client.checkExists().forPath(PATH).getVersion()).as("nothing changed").isEqualTo(before.getVersion());

        runBcast(1);
        Await.result(publisher.publish());
        assertThat(new TimingsZnode(secret).decode(JOB, "p0", client.getData().forPath(PATH)).orElseThrow().operations())
                .extracting(OperationTiming::sequence).containsExactly(0L, 1L);
    }

    private void runBcast(long sequence) {
        Observation observation = timings.started(Operation.BCAST, 0, 16);
        observation.sequenced(1, sequence, 0);
        observation.completed(null);
    }
}
