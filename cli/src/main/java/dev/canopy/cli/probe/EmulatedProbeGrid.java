package dev.canopy.cli.probe;

import dev.canopy.cli.FutureWait;
import dev.canopy.core.internal.emulation.GridWanEmulation;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.WanEmulationLayer;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.core.internal.membership.JobMembership;
import dev.canopy.core.internal.membership.MembershipView;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeLogger;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.core.transport.TransportSecurity;
import dev.canopy.core.transport.VertxTransport;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import dev.canopy.probes.internal.measure.ProbeService;
import dev.canopy.probes.internal.measure.ProbeSettings;
import dev.canopy.probes.internal.measure.ProbeStatistics;
import dev.canopy.probes.internal.measure.SiteSummary;
import dev.canopy.probes.internal.measure.SiteSummaryPublisher;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * The grid of a level file emulated in this JVM for probing: an embedded ZooKeeper, one real transport per
 * process on 127.0.0.1 behind the shared WAN emulator, the job's membership in ZooKeeper, and a probe service
 * and summary publisher per process. Its methods block: call them from the command's main thread.
 */
final class EmulatedProbeGrid implements AutoCloseable {

    static final JobId JOB = JobId.of("canopy-probe");
    private static final Duration STEP_DEADLINE = Duration.ofSeconds(60);

    private final GridModel grid;
    private final EmbeddedZooKeeper zooKeeper;
    private final Vertx vertx = CanopyVertx.create();
    /** The emulated nodes are members of one job, with a secret made for it. */
    private final JobSecret secret = JobSecret.generate();
    private final TransportSecurity security = TransportSecurity.of(secret, JOB);
    private final WanEmulator emulator;
    private final List<Transport> transports = new ArrayList<>();
    private final List<JobMembership> memberships = new ArrayList<>();
    private final List<ProbeService> services = new ArrayList<>();
    private final List<SiteSummaryPublisher> publishers = new ArrayList<>();
    private ZooKeeperSession session;

    private EmulatedProbeGrid(GridModel grid) {
        this.grid = grid;
        this.zooKeeper = EmbeddedZooKeeper.start();
        this.emulator = WanEmulator.start(GridWanEmulation.of(grid));
    }

    /** Starts everything and begins probing; on failure, releases what was started. */
    static EmulatedProbeGrid start(GridModel grid, ProbeSettings settings, long seed) {
        EmulatedProbeGrid emulated = new EmulatedProbeGrid(grid);
        try {
            emulated.startNodes(settings, seed);
            return emulated;
        } catch (RuntimeException e) {
            emulated.close();
            throw e;
        }
    }

    private void startNodes(ProbeSettings settings, long seed) {
        session = await(ZooKeeperSession.open(vertx, zooKeeper.connectString(), Duration.ofSeconds(10),
                Duration.ofSeconds(10), Optional.of(ZooKeeperCredentials.of(secret))));
        List<Member> members = new ArrayList<>();
        for (ProcessPlacement process : grid.processes()) {
            String label = NodeLogger.label(process.coordinates(), OptionalInt.of(process.globalIndex()));
            Transport bare = await(VertxTransport.start(vertx, TransportOptions.defaults().withNodeLabel(label), security));
            transports.add(new WanEmulationLayer(bare, emulator, process.coordinates(), seed + process.globalIndex()));
            members.add(new Member(nodeId(process), process.coordinates(), bare.localAddress()));
        }
        List<Future<MembershipView>> views = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            JobMembership membership = new JobMembership(transports.get(i).context(), session, JOB,
                    members.get(i), members.size(), Duration.ofSeconds(30));
            memberships.add(membership);
            views.add(membership.start());
        }
        for (int i = 0; i < members.size(); i++) {
            MembershipView view = await(views.get(i));
            ProbeService service = new ProbeService(vertx, transports.get(i), JOB, members.get(i), settings,
                    NanoClock.SYSTEM);
            JobMembership membership = memberships.get(i);
            membership.onEvent(event -> membership.view().ifPresent(service::updateMembership));
            await(service.start(view));
            services.add(service);
            SiteSummaryPublisher publisher = new SiteSummaryPublisher(vertx, service, session.client(), JOB,
                    Duration.ofSeconds(1), settings.forecast().ranking());
            publisher.start();
            publishers.add(publisher);
        }
    }

    String zooKeeperConnectString() {
        return zooKeeper.connectString();
    }

    /** The probing job's secret: its znodes are readable with it only. */
    JobSecret secret() {
        return secret;
    }

    /** Publishes every representative's summary now and reads them back from ZooKeeper, as an outside tool would. */
    List<SiteSummary> summaries() throws Exception {
        List<Future<Void>> published = new ArrayList<>();
        publishers.forEach(p -> published.add(p.publishNow()));
        await(Future.all(published));
        return SiteSummaryPublisher.readBlocking(session.client(), JOB);
    }

    List<ProbeStatistics> statistics() {
        List<ProbeStatistics> statistics = new ArrayList<>();
        services.forEach(service -> statistics.add(await(service.statistics())));
        return statistics;
    }

    /** Waits {@code duration} while the grid probes. */
    void probeFor(Duration duration) {
        await(vertx.timer(duration.toMillis(), TimeUnit.MILLISECONDS), duration.plus(STEP_DEADLINE));
    }

    @Override
    public void close() {
        publishers.forEach(SiteSummaryPublisher::stop);
        List<Future<?>> closing = new ArrayList<>();
        services.forEach(service -> closing.add(service.stop()));
        memberships.forEach(membership -> closing.add(membership.close()));
        transports.forEach(transport -> closing.add(transport.close()));
        try {
            await(Future.join(closing));
            if (session != null) {
                await(session.close());
            }
        } finally {
            emulator.close();
            await(vertx.close());
            zooKeeper.close();
        }
    }

    private static NodeId nodeId(ProcessPlacement process) {
        String raw = process.subjobLabel() + "-" + process.indexInSubjob();
        return NodeId.of(raw.replaceAll("[^A-Za-z0-9._:@-]", "_"));
    }

    private static <T> T await(Future<T> future) {
        return await(future, STEP_DEADLINE);
    }

    private static <T> T await(Future<T> future, Duration deadline) {
        return FutureWait.await(future, deadline, "the emulated grid");
    }
}
