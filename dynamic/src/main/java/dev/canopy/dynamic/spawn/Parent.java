package dev.canopy.dynamic.spawn;

import dev.canopy.collectives.run.CanopySession;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.dynamic.DynamicOptions;
import dev.canopy.dynamic.DynamicProcesses;
import dev.canopy.dynamic.InterCommunicator;
import dev.canopy.dynamic.PortName;
import dev.canopy.dynamic.StepLog;
import dev.canopy.processes.ChildMain;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A spawned process's way to its parents ({@code MPI_Comm_get_parent}): {@link #connect} is collective over the
 * children's WORLD and returns the same inter-communicator the parents' {@code spawn} returns. The spawn tells each
 * child where its parents wait in system properties ({@link SpawnedProgramEntry}); a process that was not
 * spawned has none ({@link #spawned()}).
 */
public final class Parent {

    /** At debug: when a child's WORLD and its inter-communicator were connected ({@code CANOPY_SPAWN_LOG=DEBUG}). */
    private static final Logger LOG = LoggerFactory.getLogger(Parent.class);

    /** The port the parents accept at. */
    static final String PORT_PROPERTY = "canopy.parent.port";
    /** The ZooKeeper and secret file of the child's job, for the name service. */
    static final String ZOOKEEPER_PROPERTY = "canopy.parent.zk";
    static final String SECRET_FILE_PROPERTY = "canopy.parent.secret-file";
    /**
     * The parents' TLS files, one property per {@link TlsSettings#environment()} variable (paths, never keys): the
     * inter-communicator with the parents runs TLS when theirs does, so the children must (with the same files,
     * which must exist at those paths on the children's host).
     */
    static final String TLS_PROPERTY_PREFIX = "canopy.parent.tls.";
    /**
     * The parents' ZooKeeper TLS directory ({@code --zk-tls}; a path, never a key): the children's job reaches the
     * parents' ZooKeeper as they do (a TLS-only ensemble refuses anything else). The directory must exist at that path
     * on the children's host.
     */
    static final String ZOOKEEPER_TLS_PROPERTY = "canopy.parent.zk-tls";

    private Parent() {
    }

    /** Whether this process was started by a spawn. */
    public static boolean spawned() {
        return System.getProperty(PORT_PROPERTY) != null;
    }

    /**
     * The options of the children's side (their job's ZooKeeper and secret, the parents' namespace, TLS files and
     * ZooKeeper TLS directory), to adjust
     * (timeout, inter phase) and pass to {@link #connect(CanopySession, DynamicProcesses)}.
     *
     * @throws IllegalStateException when this process was not spawned
     */
    public static DynamicOptions options() {
        String zooKeeper = System.getProperty(ZOOKEEPER_PROPERTY);
        String secretFile = System.getProperty(SECRET_FILE_PROPERTY);
        if (zooKeeper == null || secretFile == null) {
            throw notSpawned();
        }
        DynamicOptions options = DynamicOptions.of(zooKeeper, JobSecret.fromFile(Path.of(secretFile)))
                .withNamespace(port().namespace());
        options = zooKeeperTlsDirectory().map(directory -> ZooKeeperTls.fromDirectory(Path.of(directory)))
                .map(options::withZooKeeperTls).orElse(options);
        return TlsSettings.fromEnvironment(tlsEnvironment()).map(options::withTls).orElse(options);
    }

    /** The parents' ZooKeeper TLS directory ({@link #ZOOKEEPER_TLS_PROPERTY}); empty when they reach it in plain TCP. */
    static Optional<String> zooKeeperTlsDirectory() {
        return Optional.ofNullable(System.getProperty(ZOOKEEPER_TLS_PROPERTY));
    }

    /** The system property that gives a child the parents' ZooKeeper TLS directory ({@link #ZOOKEEPER_TLS_PROPERTY}). */
    static Map<String, String> zooKeeperTlsProperties(Optional<ZooKeeperTls> tls) {
        return tls.map(given -> Map.of(ZOOKEEPER_TLS_PROPERTY, given.directory().toAbsolutePath().toString()))
                .orElse(Map.of());
    }

    /**
     * The parents' TLS files as the environment variables of {@link TlsSettings#fromEnvironment} (paths only): a
     * spawned child's own job runs TLS with them too, as its parents' does. Empty when the parents run none.
     */
    static Map<String, String> tlsEnvironment() {
        Map<String, String> tlsFiles = new HashMap<>();
        System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith(TLS_PROPERTY_PREFIX))
                .forEach(name -> tlsFiles.put(name.substring(TLS_PROPERTY_PREFIX.length()), System.getProperty(name)));
        return tlsFiles;
    }

    /** The system properties that give a child the parents' TLS files ({@link #TLS_PROPERTY_PREFIX}). */
    static Map<String, String> tlsProperties(Optional<TlsSettings> tls) {
        Map<String, String> properties = new HashMap<>();
        tls.ifPresent(settings -> settings.environment().forEach((name, value) -> properties.put(TLS_PROPERTY_PREFIX + name,
                value)));
        return properties;
    }

    /**
     * Collective over {@code session}'s WORLD: the inter-communicator with the parents. The name service runs over
     * the job's own ZooKeeper session (the spawn gave the child job the parents' ZooKeeper and secret), so the way
     * back opens no session of its own.
     */
    public static Future<InterCommunicator> connect(CanopySession session) {
        try {
            return connect(session, DynamicProcesses.over(session.collectives(), session.grid(), options(),
                    session.zooKeeperSession()));
        } catch (IllegalStateException e) {
            return Future.failedFuture(e);
        }
    }

    /**
     * {@link #connect(CanopySession)} through {@code dynamic}, made with (adjusted) {@link #options()}. Once it is
     * done, this process's start-up is over: its agent may start the warm process that replaces it.
     *
     * <p>A new child job has no connection among its processes yet, and the pairing's first steps in the group (the
     * key's broadcast from rank 0, the gather of addresses, the records' broadcast) would open them on the way to the
     * parents. So every child first takes part in an empty broadcast from rank 0 over WORLD, which opens the same
     * tree's connections (one per pair, both ways) while rank 0 meets the parents' root through ZooKeeper.
     */
    public static Future<InterCommunicator> connect(CanopySession session, DynamicProcesses dynamic) {
        try {
            PortName parents = port();
            StepLog steps = new StepLog();
            Future<Buffer> connected = session.collectives().bcast(Buffer.buffer(), 0)
                    .onSuccess(opened -> steps.mark("world connected"));
            Future<InterCommunicator> made = dynamic.connect(parents, 0).onSuccess(inter -> steps.mark("connected"));
            return Future.all(connected, made).map(both -> made.result()).onComplete(done -> {
                LOG.debug("rank {} of {} to its parents: {}", session.world().rank(), session.world().member(0).id(), steps);
                ChildMain.reportStarted();
            });
        } catch (IllegalStateException e) {
            return Future.failedFuture(e);
        }
    }

    private static PortName port() {
        String port = Optional.ofNullable(System.getProperty(PORT_PROPERTY)).orElseThrow(Parent::notSpawned);
        try {
            return PortName.parse(port);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the parents' port in " + PORT_PROPERTY + " is malformed: " + e.getMessage(), e);
        }
    }

    private static IllegalStateException notSpawned() {
        return new IllegalStateException("this process was not spawned: it has no parent (no " + PORT_PROPERTY
                + " system property); only processes a spawn started have one");
    }
}
