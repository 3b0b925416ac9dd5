package dev.canopy.collectives.run;

import dev.canopy.collectives.internal.leader.PlanStore;
import dev.canopy.collectives.internal.leader.PublishedPlan;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import io.vertx.core.Vertx;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;

/** Reads published plans from ZooKeeper as an observer with its own client, authenticated as the job. */
final class PlanReader implements AutoCloseable {

    private final Vertx vertx = Vertx.vertx();
    private final CuratorFramework client;
    private final PlanStore store;

    PlanReader(String connectString, JobId job, JobSecret secret) {
        client = CuratorFrameworkFactory.builder().connectString(connectString).retryPolicy(new RetryOneTime(100))
                .authorization("digest", ZooKeeperCredentials.of(secret).digestAuthentication()).build();
        client.start();
        store = new PlanStore(vertx.getOrCreateContext(), client, job, secret);
    }

    /** The plan of the highest published epoch, if any. */
    Optional<PublishedPlan> current() {
        long epoch = Await.result(store.currentEpoch());
        return epoch == 0 ? Optional.empty() : Optional.of(read(epoch));
    }

    PublishedPlan read(long epoch) {
        return Await.result(store.read(epoch));
    }

    @Override
    public void close() {
        client.close();
        Await.result(vertx.close());
    }
}
