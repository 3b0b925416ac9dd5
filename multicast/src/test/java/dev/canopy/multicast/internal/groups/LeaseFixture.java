package dev.canopy.multicast.internal.groups;

import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.internal.membership.testing.TestVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.model.MulticastRange;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A real ZooKeeper in this JVM, Vert.x, and jobs with secrets of their own: sessions, allocators and raw clients. */
final class LeaseFixture implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseFixture.class);
    static final Duration SESSION = Duration.ofSeconds(3);
    private static final Duration CONNECT = Duration.ofSeconds(10);

    final EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
    final Vertx vertx = TestVertx.create();
    final long seed = Long.getLong("canopy.seed", System.nanoTime());
    private final List<ZooKeeperSession> sessions = new ArrayList<>();
    private final List<CuratorFramework> rawClients = new ArrayList<>();

    LeaseFixture() {
        LOG.info("group lease tests: seed {} (rerun with -Dcanopy.seed={})", seed, seed);
    }

    /** A job: its name and the ZooKeeper credentials derived from a fresh secret. */
    record Job(JobId id, ZooKeeperCredentials credentials) {
    }

    static Job newJob(String name) {
        return new Job(JobId.of(name), ZooKeeperCredentials.of(JobSecret.generate()));
    }

    ZooKeeperSession session(Job job) {
        ZooKeeperSession session = Await.result(ZooKeeperSession.open(vertx, zooKeeper.connectString(), SESSION, CONNECT,
                Optional.of(job.credentials())));
        sessions.add(session);
        return session;
    }

    GroupAllocator allocator(Job job, MulticastRange range) {
        return allocator(job, range, session(job));
    }

    GroupAllocator allocator(Job job, MulticastRange range, ZooKeeperSession session) {
        return new GroupAllocator(session, job.id(), range, vertx.getOrCreateContext(), seed + sessions.size());
    }

    /** A blocking client with {@code credentials} (empty: none), for playing a foreigner or tampering. */
    CuratorFramework rawClient(Optional<ZooKeeperCredentials> credentials) throws InterruptedException {
        CuratorFramework client = ZooKeeperSession.builder(zooKeeper.connectString(), SESSION, CONNECT, credentials).build();
        client.start();
        if (!client.blockUntilConnected((int) CONNECT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("no connection to " + zooKeeper.connectString());
        }
        rawClients.add(client);
        return client;
    }

    @Override
    public void close() {
        rawClients.forEach(CuratorFramework::close);
        sessions.forEach(session -> {
            try {
                Await.result(session.close());
            } catch (AssertionError alreadyClosed) {
                // A test closed it.
            }
        });
        Await.result(vertx.close());
        zooKeeper.close();
    }
}
