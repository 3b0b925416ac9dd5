package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One Vert.x instance and the transports a test starts on it; closes everything at the end. Event
 * loops are checked with a low maximum execute time so blocking shows up as warnings.
 */
final class TestNodes implements AutoCloseable {

    static final long JOB = JobId.of("transport-test").frameKey();

    final Vertx vertx;
    /** Every transport started here shares this job secret and job, so they authenticate each other. */
    final TransportSecurity security = TransportSecurity.of(JobSecret.generate(), JobId.of("transport-test"));
    private final List<Transport> started = new ArrayList<>();

    TestNodes() {
        this(VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE);
    }

    TestNodes(int eventLoops) {
        vertx = CanopyVertx.create(new VertxOptions().setEventLoopPoolSize(eventLoops)
                .setMaxEventLoopExecuteTime(50).setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
                .setBlockedThreadCheckInterval(50).setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS));
    }

    Transport start(String label) {
        return start(TransportOptions.defaults().withNodeLabel(label));
    }

    Transport start(TransportOptions options) {
        return start(options, security);
    }

    Transport start(TransportOptions options, TransportSecurity withSecurity) {
        Transport transport = Await.result(VertxTransport.start(vertx, options, withSecurity));
        started.add(transport);
        return transport;
    }

    /** Binds a new transport on the peer's old ports, retrying briefly as a restarting process would. */
    Transport restartOnSamePorts(Member old) {
        TransportOptions options = TransportOptions.defaults().withNodeLabel(old.id().value() + "-again")
                .withPorts(old.address().tcpPort(), old.address().udpPort());
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                return start(options);
            } catch (AssertionError portStillBusy) {
                if (System.nanoTime() > deadline) {
                    throw portStillBusy;
                }
                Await.result(vertx.timer(20)); // back-off between bind attempts
            }
        }
    }

    /** A member at {@code transport}'s address, in the given site. */
    static Member member(String id, String site, Transport transport) {
        return new Member(NodeId.of(id), new Coordinates("wan", site, site, site, id), transport.localAddress());
    }

    static Frame data(int source, int destination, long sequence, Buffer payload) {
        return new Frame(FrameType.DATA, JOB, 1, 0, source, destination, 7, sequence, payload);
    }

    static Frame data(long sequence, int payloadBytes) {
        return data(0, 1, sequence, Buffer.buffer(new byte[payloadBytes]));
    }

    /**
     * Returns once every task already queued on {@code transport}'s context has run, so a handler set through it
     * is in place. Setting a handler queues a task, and Netty's event loop handles ready I/O before queued tasks:
     * a loop that was descheduled on a loaded machine until a datagram had arrived hands it to the old handler
     * (which drops it) before the task that sets the new one runs.
     */
    static void handlersInPlace(Transport transport) {
        Promise<Void> reached = Promise.promise();
        transport.context().runOnContext(v -> reached.complete());
        Await.result(reached.future());
    }

    @Override
    public void close() {
        List<Future<Void>> closing = new ArrayList<>();
        started.forEach(transport -> closing.add(transport.close()));
        Await.result(Future.join(closing));
        Await.result(vertx.close());
    }
}
