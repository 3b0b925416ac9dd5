package dev.canopy.dynamic;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.Socket;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * MPI-2 dynamic processes for one process of a group (a communicator and its collectives): ports and service
 * names in ZooKeeper ({@link NameService}, opened on first use, only by the processes that call them), and
 * {@link #accept} / {@link #connect}, collective over the group, which make an {@link InterCommunicator} with
 * another running group; and {@link #join}, which makes one between two processes sharing a socket.
 *
 * <pre>
 * // server job, every process:
 * DynamicProcesses dynamic = DynamicProcesses.of(session, DynamicOptions.fromEnvironment(System.getenv()));
 * PortName port = session.rank() == 0 ? dynamic.await(dynamic.openPort()) : null;
 * if (session.rank() == 0) dynamic.await(dynamic.publishName("ocean", port));
 * InterCommunicator clients = dynamic.await(dynamic.accept(port, 0));
 * // client job, every process:
 * PortName port = session.rank() == 0 ? dynamic.await(dynamic.lookupName("ocean")) : null;
 * InterCommunicator server = dynamic.await(dynamic.connect(port, 0));
 * </pre>
 *
 * <p>Every method returns at once and may be called from any thread; every future completes or fails within
 * the options' timeout. {@link #close()} ends the name-service session (this process's ports and names with it).
 */
public final class DynamicProcesses implements AutoCloseable {

    private final Vertx vertx;
    private final DynamicOptions options;
    private final Pairing pairing;
    private final Collectives local;
    private final GridModel grid;
    private Future<NameService> names;
    /** A session to borrow for the name service instead of opening one. */
    private final Optional<ZooKeeperSession> borrowed;

    private DynamicProcesses(Collectives local, GridModel grid, DynamicOptions options, Optional<ZooKeeperSession> borrowed) {
        this.borrowed = borrowed;
        this.vertx = local.communicator().context().owner();
        // The inter-communicator transports bind where the job's own does, unless the options say otherwise.
        Communicator group = local.communicator();
        this.options = Objects.requireNonNull(options, "options").withHostOr(group.member(group.rank()).address().host());
        this.pairing = new Pairing(vertx, this.options, local, grid, this::names);
        this.local = local;
        this.grid = grid;
    }

    /** Over WORLD of {@code session}, with its collectives and level file. */
    public static DynamicProcesses of(CanopySession session, DynamicOptions options) {
        return over(session.collectives(), session.grid(), options);
    }

    /** Over {@code local}'s communicator; {@code grid} plans the collectives of merged communicators. */
    public static DynamicProcesses over(Collectives local, GridModel grid, DynamicOptions options) {
        return new DynamicProcesses(Objects.requireNonNull(local, "local"), Objects.requireNonNull(grid, "grid"), options,
                Optional.empty());
    }

    /**
     * {@link #over}, with the name service over {@code zooKeeper} (a session this process has already, such as its
     * job's, with the same secret's credentials) instead of a session of its own: no ZooKeeper connect on the
     * first use. {@link #close()} then deletes this process's ports and names and leaves the session open.
     */
    public static DynamicProcesses over(Collectives local, GridModel grid, DynamicOptions options, ZooKeeperSession zooKeeper) {
        return new DynamicProcesses(Objects.requireNonNull(local, "local"), Objects.requireNonNull(grid, "grid"), options,
                Optional.of(zooKeeper));
    }

    public DynamicOptions options() {
        return options;
    }

    /** A new port, open until {@link #closePort} or until this process closes its name service or ends. */
    public Future<PortName> openPort() {
        return names().compose(NameService::openPort);
    }

    public Future<Void> closePort(PortName port) {
        return names().compose(service -> service.closePort(port));
    }

    public Future<Void> publishName(String service, PortName port) {
        return names().compose(names -> names.publishName(service, port));
    }

    /** The port published as {@code service} in the options' namespace; fails naming both when none is. */
    public Future<PortName> lookupName(String service) {
        return names().compose(names -> names.lookupName(service));
    }

    public Future<Void> unpublishName(String service) {
        return names().compose(names -> names.unpublishName(service));
    }

    /**
     * Collective over this group: waits at {@code port} (read at {@code root} only; others may pass null) for a
     * group that connects, and returns the inter-communicator with it.
     */
    public Future<InterCommunicator> accept(PortName port, int root) {
        return pairing.run(Side.ACCEPT, port, root);
    }

    /**
     * {@link #accept} for a spawn, collective over the parents: at {@code root}, the pairing starts as soon as
     * {@code port} is open, while the children are still starting, so the key is agreed the moment the children's
     * root connects (after every child joined its job), and the parents hear that the spawn worked and the pairing's
     * key in one broadcast. When {@code children} fails before the children's root connects, every parent fails with
     * its reason ("spawn failed at the group's leader: ..."). The root waits up to {@code startTimeout} plus the
     * options' timeout for the children's root. {@code port} and {@code children} are read at the root only; the
     * pairing's steps are marked in {@code steps}.
     */
    public Future<InterCommunicator> acceptSpawned(Future<PortName> port, int root, Future<?> children, Duration startTimeout,
            StepLog steps) {
        return pairing.run(Side.ACCEPT, root, port, children, startTimeout.plus(options.timeout()), steps, "spawn");
    }

    /** Collective over this group: connects to the group accepting at {@code port} (read at {@code root} only). */
    public Future<InterCommunicator> connect(PortName port, int root) {
        return pairing.run(Side.CONNECT, port, root);
    }

    /**
     * MPI_Comm_join: the inter-communicator of this process and the process at the other end of {@code socket}, a
     * connected socket the two already share; each calls join with its end (collective over the two only, not over
     * this group). Over the socket the two agree on a fresh key (X25519) and exchange their inter-communicator
     * addresses; the socket stays open, positioned after the exchange, for the caller to use or close. The
     * inter-communicator's connections are this object's options' (TLS when {@link DynamicOptions#tls()} is set: both
     * must then run it). Its local group is this process alone; {@link InterCommunicator#merge} gives a communicator
     * of the two. No name service is involved.
     */
    public Future<InterCommunicator> join(Socket socket) {
        return new Join(vertx, options, local, grid).run(socket);
    }

    /** Waits for {@code future} on a plain thread (not an event loop), rethrowing its failure: for MPI-style code. */
    public <T> T await(Future<T> future) {
        return Blocking.await(future);
    }

    /** Ends the name-service session, if one was opened: this process's open ports and published names go. */
    @Override
    public void close() {
        Future<NameService> opened;
        synchronized (this) {
            opened = names;
            names = null;
        }
        if (opened != null) {
            Blocking.await(opened.compose(NameService::closeAsync).otherwiseEmpty());
        }
    }

    private synchronized Future<NameService> names() {
        if (names == null || names.failed()) {
            names = borrowed.map(session -> NameService.over(vertx, session, options))
                    .orElseGet(() -> NameService.open(vertx, options));
        }
        return names;
    }
}
