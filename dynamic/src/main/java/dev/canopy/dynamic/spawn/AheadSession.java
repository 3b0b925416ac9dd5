package dev.canopy.dynamic.spawn;

import dev.canopy.collectives.Blocking;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.processes.ChildStarter;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A warm JVM's ZooKeeper session to its agent's ensemble ({@link ChildStarter#WARM_ZOOKEEPER_PROPERTY}), opened before
 * the JVM is bound, so a spawned child's join does not wait for a connect. It is opened without credentials: the JVM
 * learns its job, and reads the job's secret, only with its binding, so until then the session can read only what
 * anyone may and create nothing. The join gives it the job's credentials ({@link #takeFor}).
 */
final class AheadSession {

    private static final Logger LOG = LoggerFactory.getLogger(AheadSession.class);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);

    private final ZooKeeperSession session;
    private final Optional<ZooKeeperTls> tls;

    private AheadSession(ZooKeeperSession session, Optional<ZooKeeperTls> tls) {
        this.session = session;
        this.tls = tls;
    }

    /**
     * Connects to the agent's ensemble with the session timeout a job's node uses by default (blocking); empty when
     * the JVM was not told an ensemble, or the connect failed (then the join connects as a cold child's does).
     */
    static Optional<AheadSession> connect(Vertx vertx) {
        String zooKeeper = System.getProperty(ChildStarter.WARM_ZOOKEEPER_PROPERTY);
        if (zooKeeper == null) {
            return Optional.empty();
        }
        Optional<ZooKeeperTls> tls = Optional.ofNullable(System.getProperty(ChildStarter.WARM_ZOOKEEPER_TLS_PROPERTY))
                .map(directory -> ZooKeeperTls.fromDirectory(Path.of(directory)));
        try {
            return Optional.of(new AheadSession(Blocking.await(ZooKeeperSession.openWithoutCredentials(vertx, zooKeeper,
                    NodeOptions.DEFAULT_SESSION_TIMEOUT, CONNECT_TIMEOUT, tls)), tls));
        } catch (RuntimeException e) {
            LOG.warn("a warm process could not connect to ZooKeeper at {} before its binding ({}); its join will", zooKeeper,
                    e.toString());
            return Optional.empty();
        }
    }

    /**
     * The session, for a node with {@code options}, when it reaches the same ensemble the same way (connect string,
     * session timeout, TLS directory); else empty, and the session is closed.
     */
    Optional<ZooKeeperSession> takeFor(NodeOptions options) {
        boolean same = options.zooKeeper().equals(session.connectString())
                && options.sessionTimeout().equals(session.sessionTimeout())
                && Objects.equals(options.zooKeeperTls().map(ZooKeeperTls::directory).map(AheadSession::absolute),
                        tls.map(ZooKeeperTls::directory).map(AheadSession::absolute));
        if (same) {
            return Optional.of(session);
        }
        session.close();
        return Optional.empty();
    }

    private static Path absolute(Path path) {
        return path.toAbsolutePath().normalize();
    }
}
