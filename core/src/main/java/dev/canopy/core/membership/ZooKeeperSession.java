package dev.canopy.core.membership;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;

/**
 * One Curator client connected to a ZooKeeper ensemble. The session timeout is also the time after
 * which a crashed node is seen to leave. Opening and closing run on a Vert.x worker thread, never on
 * an event loop.
 */
public final class ZooKeeperSession {

    private final Vertx vertx;
    private final CuratorFramework client;

    private ZooKeeperSession(Vertx vertx, CuratorFramework client) {
        this.vertx = vertx;
        this.client = client;
    }

    /**
     * Connects to {@code connectString} ({@code host:port,...}); fails with a message naming the
     * ensemble when no server answers within {@code connectTimeout}.
     */
    public static Future<ZooKeeperSession> open(Vertx vertx, String connectString, Duration sessionTimeout,
            Duration connectTimeout) {
        Objects.requireNonNull(connectString, "connectString");
        if (connectString.isBlank()) {
            return Future.failedFuture(new IllegalArgumentException("ZooKeeper connect string is empty; give host:port,..."));
        }
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs((int) sessionTimeout.toMillis())
                .connectionTimeoutMs((int) Math.min(sessionTimeout.toMillis(), connectTimeout.toMillis()))
                .retryPolicy(new BoundedExponentialBackoffRetry(100, 1000, 20))
                // Keep talking to the servers we were given; do not follow hostnames from the ensemble config.
                .ensembleTracker(false)
                .build();
        Promise<ZooKeeperSession> opened = Promise.promise();
        vertx.executeBlocking(() -> {
            client.start();
            if (!client.blockUntilConnected((int) connectTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                client.close();
                throw new IllegalStateException("no ZooKeeper server answered at " + connectString + " within "
                        + connectTimeout.toMillis() + " ms (is the ensemble running? check --zk)");
            }
            return new ZooKeeperSession(vertx, client);
        }).onComplete(opened);
        return opened.future();
    }

    public CuratorFramework client() {
        return client;
    }

    /** Closes the client; the session ends and this node's ephemeral znodes disappear at once. */
    public Future<Void> close() {
        return vertx.executeBlocking(() -> {
            client.close();
            return null;
        });
    }
}
