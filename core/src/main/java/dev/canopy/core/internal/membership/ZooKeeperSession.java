package dev.canopy.core.internal.membership;

import dev.canopy.core.security.tls.ZooKeeperTls;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;

/**
 * One Curator client connected to a ZooKeeper ensemble. The session timeout is also the time after
 * which a crashed node is seen to leave. Opening and closing run on a Vert.x worker thread, never on
 * an event loop.
 *
 * <p>With {@link ZooKeeperCredentials} the client authenticates with the {@code digest} scheme and every
 * znode it creates under {@code /canopy/jobs} belongs to those credentials; without them it creates open
 * znodes, as Canopy did before ACLs ({@link JobAclProvider}). With {@link ZooKeeperTls} it talks TLS to the
 * servers' secure client port, with settings of its own (a {@code ZKClientConfig}, never system properties).
 */
public final class ZooKeeperSession {

    private final Vertx vertx;
    private final CuratorFramework client;
    private final String connectString;
    private final Duration sessionTimeout;
    private final Optional<ZooKeeperCredentials> credentials;
    private final SessionEndWatch endWatch;
    /** Present for a session opened without credentials that has not been given them yet. */
    private final Optional<LateCredentials> lateCredentials;

    private ZooKeeperSession(Vertx vertx, CuratorFramework client, String connectString, Duration sessionTimeout,
            Optional<ZooKeeperCredentials> credentials, SessionEndWatch endWatch, Optional<LateCredentials> lateCredentials) {
        this.vertx = vertx;
        this.lateCredentials = lateCredentials;
        this.client = client;
        this.connectString = connectString;
        this.sessionTimeout = sessionTimeout;
        this.credentials = credentials;
        this.endWatch = endWatch;
    }

    /** {@link #open(Vertx, String, Duration, Duration, Optional)} without credentials: open ACLs. */
    public static Future<ZooKeeperSession> open(Vertx vertx, String connectString, Duration sessionTimeout,
            Duration connectTimeout) {
        return open(vertx, connectString, sessionTimeout, connectTimeout, Optional.empty());
    }

    /** {@link #open(Vertx, String, Duration, Duration, Optional, Optional)} over plain TCP. */
    public static Future<ZooKeeperSession> open(Vertx vertx, String connectString, Duration sessionTimeout,
            Duration connectTimeout, Optional<ZooKeeperCredentials> credentials) {
        return open(vertx, connectString, sessionTimeout, connectTimeout, credentials, Optional.empty());
    }

    /**
     * Connects to {@code connectString} ({@code host:port,...}), over TLS with {@code tls}; fails with a message
     * naming the ensemble when no server answers within {@code connectTimeout} (also what a server that speaks
     * the other protocol, plain or TLS, looks like: the message says so).
     */
    public static Future<ZooKeeperSession> open(Vertx vertx, String connectString, Duration sessionTimeout,
            Duration connectTimeout, Optional<ZooKeeperCredentials> credentials, Optional<ZooKeeperTls> tls) {
        return open(vertx, connectString, sessionTimeout, connectTimeout, credentials, tls, false);
    }

    /**
     * Connects without credentials, for a process that learns them later (a spawn's warm JVM, which connects before
     * it is handed a job): until {@link #authenticate} it is anonymous, so it reads only what anyone may and creates
     * nothing (its znodes would carry its creator's credentials, and it has none). Then it is the session
     * {@link #open} with those credentials makes, without the connect on the way.
     */
    public static Future<ZooKeeperSession> openWithoutCredentials(Vertx vertx, String connectString,
            Duration sessionTimeout, Duration connectTimeout, Optional<ZooKeeperTls> tls) {
        return open(vertx, connectString, sessionTimeout, connectTimeout, Optional.empty(), tls, true);
    }

    /**
     * This session with {@code given}: from now on it acts with them, and the znodes it creates belong to them. Only
     * for a session {@link #openWithoutCredentials}, once; this object is not to be used afterwards.
     *
     * @throws IllegalStateException for any other session
     */
    public ZooKeeperSession authenticate(ZooKeeperCredentials given) {
        LateCredentials late = lateCredentials.orElseThrow(() -> new IllegalStateException("the ZooKeeper session to "
                + connectString + " was opened with its credentials; it takes no others"));
        try {
            late.give(given, client.getZookeeperClient().getZooKeeper());
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot authenticate the ZooKeeper session to " + connectString + ": " + e, e);
        }
        return new ZooKeeperSession(vertx, client, connectString, sessionTimeout, Optional.of(given), endWatch,
                Optional.empty());
    }

    private static Future<ZooKeeperSession> open(Vertx vertx, String connectString, Duration sessionTimeout,
            Duration connectTimeout, Optional<ZooKeeperCredentials> credentials, Optional<ZooKeeperTls> tls,
            boolean credentialsLater) {
        Objects.requireNonNull(connectString, "connectString");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(tls, "tls");
        if (connectString.isBlank()) {
            return Future.failedFuture(new IllegalArgumentException("ZooKeeper connect string is empty; give host:port,..."));
        }
        Promise<ZooKeeperSession> opened = Promise.promise();
        // Building the client loads Curator's and ZooKeeper's classes (seconds on a starved machine): off the
        // caller's event loop, with the connect.
        vertx.executeBlocking(() -> {
            SessionEndWatch endWatch = new SessionEndWatch();
            Optional<LateCredentials> late = credentialsLater ? Optional.of(new LateCredentials(endWatch)) : Optional.empty();
            CuratorFrameworkFactory.Builder builder = builder(connectString, sessionTimeout, connectTimeout, credentials, tls)
                    .zookeeperFactory(late.isPresent() ? late.get() : endWatch);
            // Whatever a session that gets its credentials later creates belongs to them, as with credentials from
            // the start (before it has them, it can create nothing).
            CuratorFramework client = late.isPresent() ? builder.aclProvider(JobAclProvider.SECURED).build() : builder.build();
            client.start();
            if (!client.blockUntilConnected((int) connectTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                client.close();
                throw new IllegalStateException(noAnswer(connectString, connectTimeout, tls));
            }
            return new ZooKeeperSession(vertx, client, connectString, sessionTimeout, credentials, endWatch, late);
        }).onComplete(opened);
        return opened.future();
    }

    /** Why no session opened: nobody answered, or (the same to a client) a server that speaks the other protocol. */
    static String noAnswer(String connectString, Duration connectTimeout, Optional<ZooKeeperTls> tls) {
        return "no ZooKeeper server answered at " + connectString + " within " + connectTimeout.toMillis() + " ms"
                + tls.map(given -> " over TLS (is the ensemble running? with --zk-tls, --zk must name the servers'"
                        + " secureClientPort, and their certificate must be signed by a CA in " + given.directory() + ")")
                .orElse(" (is the ensemble running? check --zk; if that port is a TLS port (secureClientPort),"
                        + " connect with --zk-tls)");
    }

    /** {@link #builder(String, Duration, Duration, Optional, Optional)} over plain TCP. */
    public static CuratorFrameworkFactory.Builder builder(String connectString, Duration sessionTimeout,
            Duration connectTimeout, Optional<ZooKeeperCredentials> credentials) {
        return builder(connectString, sessionTimeout, connectTimeout, credentials, Optional.empty());
    }

    /**
     * A Curator client builder with Canopy's settings: timeouts, retries, with credentials the {@code digest}
     * authentication and {@link JobAclProvider}, with {@code tls} this client's TLS settings. For the few callers
     * that need a plain blocking client (the launcher's sweep); nodes use {@link #open}.
     */
    public static CuratorFrameworkFactory.Builder builder(String connectString, Duration sessionTimeout,
            Duration connectTimeout, Optional<ZooKeeperCredentials> credentials, Optional<ZooKeeperTls> tls) {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs((int) sessionTimeout.toMillis())
                .connectionTimeoutMs((int) Math.min(sessionTimeout.toMillis(), connectTimeout.toMillis()))
                .retryPolicy(new BoundedExponentialBackoffRetry(100, 1000, 20))
                // Keep talking to the servers we were given; do not follow hostnames from the ensemble config.
                .ensembleTracker(false);
        credentials.ifPresent(given -> builder.authorization(JobAclProvider.DIGEST, given.digestAuthentication()));
        tls.ifPresent(given -> builder.zkClientConfig(given.clientConfig()));
        return builder.aclProvider(credentials.isPresent() ? JobAclProvider.SECURED : JobAclProvider.OPEN);
    }

    public CuratorFramework client() {
        return client;
    }

    /** The ensemble this client talks to, {@code host:port,...}, for messages. */
    public String connectString() {
        return connectString;
    }

    public Duration sessionTimeout() {
        return sessionTimeout;
    }

    /** The credentials the znodes of this client's jobs belong to; empty: open znodes. */
    public Optional<ZooKeeperCredentials> credentials() {
        return credentials;
    }

    /**
     * Why this client's session ended, for a message, once Curator reported it LOST: "lost contact with
     * ZooKeeper at ..." when no server answered for the session timeout, or "ZooKeeper at ... expired the
     * session" when a server said so.
     */
    public String describeLoss() {
        return switch (endWatch.lastEnd()) {
            case CONTACT_LOST -> "lost contact with ZooKeeper at " + connectString + " (no server answered for the "
                    + sessionTimeout.toMillis() + " ms session timeout)";
            case EXPIRED_BY_SERVER -> "ZooKeeper at " + connectString + " expired the session (it heard nothing from"
                    + " this node for the " + sessionTimeout.toMillis() + " ms session timeout)";
        };
    }

    /** Closes the client; the session ends and this node's ephemeral znodes disappear at once. */
    public Future<Void> close() {
        return vertx.executeBlocking(() -> {
            client.close();
            return null;
        });
    }
}
