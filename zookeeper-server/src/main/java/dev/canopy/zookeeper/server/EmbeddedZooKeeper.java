package dev.canopy.zookeeper.server;

import dev.canopy.core.security.tls.ZooKeeperTls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.zookeeper.server.NIOServerCnxnFactory;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real, single-server ZooKeeper inside this JVM: listens on 127.0.0.1 on an ephemeral port and keeps
 * its data in a temporary directory that {@link #close()} deletes. Used when no ensemble is given.
 *
 * <p>With {@link ZooKeeperTls} ({@link #start(Optional)}) its only client port is a TLS port (ZooKeeper's
 * {@code secureClientPort}, Netty), with the directory's server key; no plain port is opened. It asks clients
 * for no certificate: they authenticate with the job's digest credentials, which TLS now keeps secret.
 *
 * <p>{@link #start()} and {@link #close()} block (they bind a socket and load or flush the database);
 * call them from a main or worker thread, never from an event loop.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedZooKeeper.class);

    /** Short ticks so that test and demo session timeouts of one or two seconds are allowed. */
    private static final int TICK_MILLIS = 250;
    private static final Duration MIN_SESSION_TIMEOUT = Duration.ofMillis(4L * TICK_MILLIS);
    private static final Duration MAX_SESSION_TIMEOUT = Duration.ofMinutes(1);
    private static final int MAX_CLIENT_CONNECTIONS = 1000;
    /** ZooKeeper's switch for an fsync per transaction ({@code no} turns it off). */
    private static final String FORCE_SYNC_PROPERTY = "zookeeper.forceSync";

    private final String host;
    private final Path dataDirectory;
    private final ZooKeeperServer server;
    private final ServerCnxnFactory connections;
    private final boolean secure;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EmbeddedZooKeeper(String host, Path dataDirectory, ZooKeeperServer server, ServerCnxnFactory connections,
            boolean secure) {
        this.host = host;
        this.dataDirectory = dataDirectory;
        this.server = server;
        this.connections = connections;
        this.secure = secure;
    }

    /** Starts a server on 127.0.0.1 and an ephemeral port. Blocking. */
    public static EmbeddedZooKeeper start() {
        return start("127.0.0.1", Optional.empty());
    }

    /**
     * Starts a server on {@code host} (an address of this machine, or of the network namespace the process runs
     * in) and an ephemeral port. Blocking.
     */
    public static EmbeddedZooKeeper start(String host) {
        return start(host, Optional.empty());
    }

    /**
     * Starts a server on 127.0.0.1 and an ephemeral port; with {@code tls} that port speaks TLS only (the
     * directory must hold the server's key). Blocking.
     */
    public static EmbeddedZooKeeper start(Optional<ZooKeeperTls> tls) {
        return start("127.0.0.1", tls);
    }

    /** Starts a server on {@code host} and an ephemeral port, TLS only with {@code tls}. Blocking. */
    public static EmbeddedZooKeeper start(String host, Optional<ZooKeeperTls> tls) {
        Path dataDirectory;
        try {
            dataDirectory = Files.createTempDirectory("canopy-zookeeper-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a data directory for the embedded ZooKeeper: " + e.getMessage(), e);
        }
        ServerCnxnFactory connections;
        try {
            connections = tls.isPresent() ? SecureClientPort.factory(tls.get()) : new NIOServerCnxnFactory();
        } catch (RuntimeException e) {
            deleteQuietly(dataDirectory);
            throw e;
        }
        ZooKeeperServer server = null;
        try {
            server = new ZooKeeperServer(transactionLogWithoutFsync(dataDirectory), TICK_MILLIS, "");
            server.setMinSessionTimeout((int) MIN_SESSION_TIMEOUT.toMillis());
            server.setMaxSessionTimeout((int) MAX_SESSION_TIMEOUT.toMillis());
            connections.configure(new InetSocketAddress(host, 0), MAX_CLIENT_CONNECTIONS, -1, tls.isPresent());
            connections.startup(server);
            EmbeddedZooKeeper zooKeeper = new EmbeddedZooKeeper(host, dataDirectory, server, connections, tls.isPresent());
            LOG.info("embedded ZooKeeper listening on {}{} (data in {})", zooKeeper.connectString(),
                    tls.isPresent() ? " (TLS only)" : "", dataDirectory);
            return zooKeeper;
        } catch (IOException | RuntimeException | LinkageError e) {
            // Stop the server's threads too, or a failed start would keep the JVM alive.
            connections.shutdown();
            if (server != null) {
                server.shutdown();
            }
            deleteQuietly(dataDirectory);
            throw new IllegalStateException("cannot start the embedded ZooKeeper on " + host + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connections.shutdown();
            deleteQuietly(dataDirectory);
            throw new IllegalStateException("interrupted while starting the embedded ZooKeeper", e);
        }
    }

    /** The connect string for clients, {@code <host>:<port>}. */
    public String connectString() {
        return host + ":" + connections.getLocalPort();
    }

    /** Whether the client port speaks TLS only. */
    public boolean secure() {
        return secure;
    }

    public int port() {
        return connections.getLocalPort();
    }

    /** The client connections open now: one per connected ZooKeeper session (for diagnostics and tests). */
    public int clientConnections() {
        return connections.getNumAliveConnections();
    }

    /**
     * The server's snapshots and transaction log in {@code dataDirectory}, written without an fsync per transaction:
     * the directory is temporary ({@link #close()} deletes it, and a server that dies with its JVM is never
     * restarted from it), so a sync buys no durability, while it costs every write (a session, a member, a spawn's
     * record) a disk flush of several milliseconds on the critical path. ZooKeeper reads the setting once per log,
     * from a system property, so it is set only around this construction (unless the user set it).
     */
    private static FileTxnSnapLog transactionLogWithoutFsync(Path dataDirectory) throws IOException {
        synchronized (EmbeddedZooKeeper.class) {
            boolean given = System.getProperty(FORCE_SYNC_PROPERTY) != null;
            if (!given) {
                System.setProperty(FORCE_SYNC_PROPERTY, "no");
            }
            try {
                return new FileTxnSnapLog(dataDirectory.resolve("snapshots").toFile(), dataDirectory.resolve("log").toFile());
            } finally {
                if (!given) {
                    System.clearProperty(FORCE_SYNC_PROPERTY);
                }
            }
        }
    }

    /** The temporary directory holding snapshots and the transaction log; deleted by {@link #close()}. */
    public Path dataDirectory() {
        return dataDirectory;
    }

    /** Stops the server, closes every client connection and deletes the data directory. Blocking, idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        connections.shutdown();
        server.shutdown();
        deleteQuietly(dataDirectory);
        LOG.info("embedded ZooKeeper stopped");
    }

    private static void deleteQuietly(Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.warn("cannot delete the embedded ZooKeeper data directory {}: {}", directory, e.getMessage());
        }
    }
}
