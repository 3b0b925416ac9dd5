package dev.canopy.dynamic;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.CommunicatorRuntime;
import dev.canopy.core.comm.MessageLimits;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.failure.Departure;
import dev.canopy.core.internal.failure.FailureMonitor;
import dev.canopy.core.internal.membership.MembershipView;
import dev.canopy.core.internal.security.SecurityCounters;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.transport.FrameDemux;
import dev.canopy.core.transport.FrameFamily;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.core.transport.TransportSecurity;
import dev.canopy.core.transport.VertxTransport;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One process's end of an inter-communicator: a transport of its own (the existing {@link VertxTransport},
 * with the job's layers over it, and TLS when the options ask for it) whose handshake is keyed by the
 * inter-communicator's key (a port's, or a join's), so only processes holding that key get in; the communicator
 * runtime over the table of both groups; and the failure monitor that tells it when a member of either group
 * fails (a connection reset, silence, a goodbye). Connections open on the first frame to a member; the monitor's
 * heartbeats open one to every member within a heartbeat period.
 *
 * <p>Owned by its transport's context.
 */
final class Bridge {

    private static final Duration GOODBYE_TIMEOUT = Duration.ofSeconds(1);

    private final Transport transport;
    private final FrameDemux demux;
    private final BridgeSourceCheck sources;
    private final JobId job;
    private final TransportSecurity security;
    private final HeartbeatSettings heartbeat;
    private CommunicatorRuntime runtime;
    private FailureMonitor monitor;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Bridge(Transport transport, BridgeSourceCheck sources, TransportSecurity security, HeartbeatSettings heartbeat,
            String label) {
        this.transport = transport;
        this.security = security;
        this.heartbeat = heartbeat;
        this.sources = sources;
        this.job = security.job();
        MessageLimits limits = MessageLimits.defaults();
        this.demux = new FrameDemux(transport, () -> label, limits.bytesPerPeer(), limits.bytesTotal());
    }

    /** Binds the transport whose handshake proves {@code key} for {@code job} (an inter-communicator's name). */
    static Future<Bridge> bind(Vertx vertx, DynamicOptions options, JobSecret key, JobId job, String label) {
        BridgeSourceCheck sources = new BridgeSourceCheck();
        TransportSecurity security = TransportSecurity.of(key, job).withSourceCheck(sources);
        TransportOptions labelled = TransportOptions.defaults().withNodeLabel(label);
        // DynamicProcesses sets the job transport's address when the options name none.
        TransportOptions settings = options.host().map(host -> labelled.withHost(host.bind(), host.advertised()))
                .orElse(labelled);
        return VertxTransport.start(vertx, options.tls().map(settings::withTls).orElse(settings), security)
                .map(options.layers()::build)
                .map(transport -> new Bridge(transport, sources, security, options.heartbeat(), label));
    }

    NodeAddress address() {
        return transport.localAddress();
    }

    /** The key and job this end's handshake proves: what every member of the inter-communicator holds. */
    TransportSecurity security() {
        return security;
    }

    /** What this end's transport refused (foreign handshakes, forged frames, a peer without TLS), by reason. */
    SecurityCounters securityCounters() {
        return transport.securityCounters();
    }

    Context context() {
        return transport.context();
    }

    /** The communicator over both groups, ranked as {@code union}; this process is {@code self} in it. */
    Future<Communicator> join(MembershipView union, NodeId self, String label) {
        Context context = transport.context();
        return Future.<CommunicatorRuntime>future(started -> context.runOnContext(v -> {
            sources.follow(union);
            runtime = new CommunicatorRuntime(context, demux.port(FrameFamily.COMMUNICATION), job, union, self, label,
                    NodeOptions.DEFAULT_DEPARTURE_GRACE, MessageLimits.defaults());
            monitor = new FailureMonitor(context, demux.port(FrameFamily.LIVENESS), job.frameKey(), union, self,
                    heartbeat, NanoClock.SYSTEM, label);
            // The first heartbeats wait a period: with every member of both groups connecting to every other at once,
            // the handshakes took the CPU from the creation's own first frames (the crossing pair) on a small host.
            monitor.startHeartbeatsAfterAPeriod(this::departed, runtime::revokedByPeer);
            started.complete(runtime);
        })).compose(CommunicatorRuntime::world);
    }

    /**
     * Says goodbye (members see a leave, not a failure), stops the communicators (their pending operations fail
     * with {@code reason}) and closes the transport. Idempotent.
     */
    Future<Void> close(String reason) {
        if (!closed.compareAndSet(false, true)) {
            return Future.succeededFuture();
        }
        // runtime and monitor are set on the context; the steps below run there too.
        return Future.<Void>future(entered -> transport.context().runOnContext(v -> {
            sources.settle();
            entered.complete();
        })).transform(entered -> runtime == null ? Future.<Void>succeededFuture() : runtime.close(reason))
                .transform(stopped -> monitor == null ? Future.<Void>succeededFuture() : monitor.goodbye(GOODBYE_TIMEOUT))
                .transform(saidGoodbye -> {
                    if (monitor != null) {
                        monitor.stop();
                    }
                    return transport.close();
                });
    }

    /** As a node does: sends to a departed member fail at once, receives once its last frames are in. */
    private void departed(Departure departure) {
        runtime.memberDeparted(departure);
        if (departure.kind() == Departure.Kind.FAILED) {
            monitor.tellExcluded(departure.member())
                    .onComplete(told -> transport.peerGone(departure.member(), departure.reason()));
        } else {
            transport.peerGone(departure.member(), departure.reason());
        }
    }
}
