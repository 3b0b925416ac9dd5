package dev.canopy.probes.internal.measure;

import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.membership.MembershipView;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.core.transport.TransportSecurity;
import dev.canopy.core.transport.VertxTransport;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Several probing nodes in this JVM on 127.0.0.1: one real Vert.x transport each (optionally wrapped in layers
 * such as WAN emulation), one rank table, one probe service each.
 */
final class LiveGrid implements AutoCloseable {

    static final JobId JOB = JobId.of("probe-test");

    final Vertx vertx = Vertx.vertx(new VertxOptions()
            .setEventLoopPoolSize(2)
            .setMaxEventLoopExecuteTime(100)
            .setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
            .setBlockedThreadCheckInterval(100)
            .setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS)
            .setWarningExceptionTime(1000)
            .setWarningExceptionTimeUnit(TimeUnit.MILLISECONDS));
    final List<Transport> transports = new ArrayList<>();
    final List<Member> members = new ArrayList<>();
    final List<ProbeService> services = new ArrayList<>();
    private final List<AutoCloseable> closeFirst = new ArrayList<>();
    MembershipView view;
    /** The grid's job and secret: every node of the grid is a member. */
    final TransportSecurity security = TransportSecurity.of(JobSecret.generate(), JOB);

    /** Wraps a node's bare transport in test layers. */
    @FunctionalInterface
    interface Layers {
        Transport wrap(Transport bare, Coordinates coordinates, int index);
    }

    /**
     * Starts one node per entry of {@code sites} (the site of that node), each transport wrapped by
     * {@code layers}, and their probe services.
     */
    static LiveGrid start(List<String> sites, ProbeSettings settings, Layers layers) {
        LiveGrid grid = new LiveGrid();
        try {
            for (int i = 0; i < sites.size(); i++) {
                String site = sites.get(i);
                String host = site + "-n" + i;
                Transport bare = Await.result(VertxTransport.start(grid.vertx,
                        TransportOptions.defaults().withNodeLabel(site + "/" + host), grid.security));
                Coordinates coordinates = new Coordinates("wan", site, site, site, host);
                grid.transports.add(layers.wrap(bare, coordinates, i));
                grid.members.add(new Member(NodeId.of(host), coordinates, bare.localAddress()));
            }
            grid.view = MembershipView.startedWith(grid.members);
            for (int i = 0; i < sites.size(); i++) {
                ProbeService service = new ProbeService(grid.vertx, grid.transports.get(i), JOB, grid.members.get(i),
                        settings, NanoClock.SYSTEM);
                grid.services.add(service);
            }
            for (ProbeService service : grid.services) {
                Await.result(service.start(grid.view));
            }
            return grid;
        } catch (RuntimeException | AssertionError e) {
            grid.close();
            throw e;
        }
    }

    static LiveGrid start(List<String> sites, ProbeSettings settings) {
        return start(sites, settings, (transport, coordinates, index) -> transport);
    }

    /** Closes {@code resource} (e.g. a WAN emulator) once probing stopped, before the transports close. */
    LiveGrid closeWith(AutoCloseable resource) {
        closeFirst.add(resource);
        return this;
    }

    ProbeService service(int index) {
        return services.get(index);
    }

    @Override
    public void close() {
        List<Future<Void>> stopping = new ArrayList<>();
        for (ProbeService service : services) {
            stopping.add(service.stop());
        }
        Await.result(Future.join(stopping));
        for (AutoCloseable resource : closeFirst) {
            try {
                resource.close();
            } catch (Exception e) {
                throw new AssertionError("cannot close " + resource, e);
            }
        }
        List<Future<Void>> closing = new ArrayList<>();
        for (Transport transport : transports) {
            closing.add(transport.close());
        }
        Await.result(Future.join(closing).transform(done -> vertx.close()));
    }
}
