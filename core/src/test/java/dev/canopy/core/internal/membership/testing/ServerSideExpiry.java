package dev.canopy.core.internal.membership.testing;

import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.testing.Await;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Makes the server expire a client's session, as a real expiry happens: a second handle takes over the
 * session (same id and password) and closes it, so the server ends the session and tells the client so
 * when it reconnects. (Curator's {@code KillSession} instead injects the expiry into the client, which is
 * what the client does by itself when it has lost contact.)
 */
public final class ServerSideExpiry {

    private ServerSideExpiry() {
    }

    /** Expires {@code session} on its server; returns once the server has ended it (the client learns it later). */
    public static void expire(ZooKeeperSession session) throws Exception {
        expire(session.client());
    }

    /** Expires the session of {@code client} (e.g. a node's {@code CanopyNode.zooKeeper()}) on its server. */
    public static void expire(CuratorFramework client) throws Exception {
        ZooKeeper victim = client.getZookeeperClient().getZooKeeper();
        String connectString = client.getZookeeperClient().getCurrentConnectionString();
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper usurper = new ZooKeeper(connectString, victim.getSessionTimeout(), event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, victim.getSessionId(), victim.getSessionPasswd());
        try {
            if (!connected.await(Await.DEFAULT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("could not take over session 0x" + Long.toHexString(victim.getSessionId())
                        + " within " + Await.DEFAULT);
            }
        } finally {
            usurper.close((int) Duration.ofSeconds(5).toMillis());
        }
    }
}
