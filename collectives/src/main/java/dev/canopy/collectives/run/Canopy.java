package dev.canopy.collectives.run;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.calibration.LogGpStore;
import dev.canopy.collectives.internal.calibration.SegmentationStore;
import dev.canopy.collectives.internal.leader.ConfiguredSizedPlan;
import dev.canopy.collectives.internal.multicast.BroadcastLayers;
import dev.canopy.collectives.internal.multicast.MulticastFabrics;
import dev.canopy.collectives.internal.timing.OperationTimings;
import dev.canopy.collectives.internal.timing.TimingsPublisher;
import dev.canopy.collectives.internal.timing.TimingsZnode;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.multicast.internal.groups.GroupAllocator;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.LogGpParameters;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point for programs with a plain {@code main}: {@code try (CanopySession s = Canopy.join(options)) {...}}.
 * {@code canopy launch} starts such programs with {@link JoinOptions#fromEnvironment} options. A Vert.x
 * application joins with {@link #joinAsync(Vertx, JoinOptions, VertxOwner)} on its own Vert.x, or deploys a
 * {@link CanopyVerticle}.
 */
public final class Canopy {

    private static final Logger LOG = LoggerFactory.getLogger(Canopy.class);

    private Canopy() {
    }

    /** Joins the job and waits at its start barrier (blocking: call it from main, not from an event loop). */
    public static CanopySession join(JoinOptions options) {
        return join(options, new VertxOptions());
    }

    /**
     * {@link #join(JoinOptions)} on a Vert.x instance made with {@code vertxOptions} (event-loop count, blocked-thread
     * checks, metrics, ...); the session closes it when it closes.
     */
    public static CanopySession join(JoinOptions options, VertxOptions vertxOptions) {
        return Blocking.await(joinAsync(CanopyVertx.create(vertxOptions), options, VertxOwner.SESSION));
    }

    /** Joins the job on {@code vertx}, which the session closes when it closes ({@link VertxOwner#SESSION}). */
    public static Future<CanopySession> joinAsync(Vertx vertx, JoinOptions options) {
        return joinAsync(vertx, options, VertxOwner.SESSION);
    }

    /**
     * Joins the job on {@code vertx}; the session closes {@code vertx} when it ends only if {@code owner} is
     * {@link VertxOwner#SESSION}. Called on one of {@code vertx}'s contexts (a verticle's), the node lives on that
     * context. Scatter and gather use the segmentation thresholds and LogGP parameters {@code canopy calibrate}
     * stored for the grid with the same secret, if any. With live plans the node starts probing and joins the
     * plan leader election once WORLD exists.
     */
    public static Future<CanopySession> joinAsync(Vertx vertx, JoinOptions options, VertxOwner owner) {
        return join(vertx, options, owner, CanopyNode.start(vertx, options.nodeOptions()));
    }

    /**
     * {@link #joinAsync(Vertx, JoinOptions)} over {@code connected}: a session to the options' ensemble that this
     * process opened {@link ZooKeeperSession#openWithoutCredentials without credentials} before it knew its job (a
     * spawn's warm JVM). The join gives it the job's credentials and owns it; it saves the join a ZooKeeper connect.
     */
    public static Future<CanopySession> joinConnected(Vertx vertx, JoinOptions options, ZooKeeperSession connected) {
        return join(vertx, options, VertxOwner.SESSION, CanopyNode.start(vertx, options.nodeOptions(), connected));
    }

    private static Future<CanopySession> join(Vertx vertx, JoinOptions options, VertxOwner owner, Future<CanopyNode> started) {
        return started
                .compose(node -> {
                    // Three independent ZooKeeper conversations, side by side rather than one after the other.
                    Future<CollectiveSettings> calibrated = calibratedSettings(vertx, node, options);
                    Future<LogGpParameters> calibratedLogGp = calibratedLogGp(vertx, node, options);
                    Future<Communicator> joined = node.join();
                    return Future.all(calibrated, calibratedLogGp, joined).compose(all -> {
                            CollectiveSettings settings = calibrated.result();
                            LogGpParameters loggp = calibratedLogGp.result();
                            Communicator world = joined.result();
                            LevelAlgorithms algorithms = LevelChoices.of(options.grid().levels());
                            // The file's trees per size class: finding the classes plans a root per site, off the loop.
                            return world.context().executeBlocking(() -> ConfiguredSizedPlan.of(world.members(),
                                            options.grid(), algorithms, loggp), false)
                                    .compose(plan -> session(vertx, owner, node, world, options, algorithms, loggp,
                                            new Collectives(world, plan, settings)));
                        })
                        .onFailure(e -> node.close());
                });
    }

    private static Future<CanopySession> session(Vertx vertx, VertxOwner owner, CanopyNode node, Communicator world,
            JoinOptions options, LevelAlgorithms algorithms, LogGpParameters loggp, Collectives configured) {
        // Every member notes its collectives' timings, published for the job's dashboards.
        OperationTimings timings = new OperationTimings();
        // bcast multicasts where the level file asks for it and every member can (collective),
        // in groups leased through this node's ZooKeeper session from the grid's range.
        GroupAllocator leases = new GroupAllocator(node.zooKeeperSession(), node.job(),
                options.grid().multicast(), world.context(), System.nanoTime());
        return BroadcastLayers.plugInto(configured.withObserver(timings), options.grid().levels(),
                        MulticastFabrics.ipOnly(leases), MulticastOptions.DEFAULTS)
                .compose(collectives -> livePlans(vertx, node, world, algorithms, loggp, options)
                        .map(live -> new CanopySession(vertx, owner, node, world, options.grid(), collectives, live,
                                leases, TimingsPublisher.start(vertx, node.zooKeeper(), node.job(), node.id().value(),
                                        world.rank(), timings, new TimingsZnode(options.secret()),
                                        TimingsPublisher.INTERVAL))));
    }

    private static Future<Optional<LivePlans>> livePlans(Vertx vertx, CanopyNode node, Communicator world,
            LevelAlgorithms algorithms, LogGpParameters loggp, JoinOptions options) {
        return options.livePlans()
                .map(settings -> LivePlans.start(vertx, node, world, options.grid(), options.secret(), algorithms, loggp, settings)
                        .map(Optional::of))
                .orElse(Future.succeededFuture(Optional.empty()));
    }

    /** The LogGP parameters {@code canopy calibrate} stored for the grid with this job's secret, else the defaults. */
    private static Future<LogGpParameters> calibratedLogGp(Vertx vertx, CanopyNode node, JoinOptions options) {
        return new LogGpStore(vertx, node.zooKeeper(), options.secret()).load(options.grid().name())
                .map(stored -> {
                    stored.ifPresent(loggp -> LOG.info("plans use the calibrated LogGP parameters {}", loggp));
                    return stored.orElse(LogGpParameters.DEFAULTS);
                });
    }

    /**
     * The settings every joining session uses: the thresholds stored for the grid with this job's secret, read
     * through the node's own ZooKeeper client; the defaults when none are stored (or not with this secret).
     */
    public static Future<CollectiveSettings> calibratedSettings(Vertx vertx, CanopyNode node, JoinOptions options) {
        return new SegmentationStore(vertx, node.zooKeeper(), options.secret()).load(options.grid().name())
                .map(stored -> {
                    stored.ifPresent(thresholds -> LOG.info("scatter and gather use the calibrated thresholds {}",
                            thresholds.toJson().encode()));
                    return stored.map(CollectiveSettings.defaults()::withThresholds).orElse(CollectiveSettings.defaults());
                });
    }
}
