package dev.canopy.core.internal.failure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.membership.MembershipView;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportLayer;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.core.transport.TransportSecurity;
import dev.canopy.core.transport.VertxTransport;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When a monitor's first heartbeat (and with it the connection to each member) leaves: at once with {@code start}, one
 * jittered period later with {@code startHeartbeatsAfterAPeriod} (an inter-communicator's, whose creation sends its own
 * first frames meanwhile).
 */
class FirstHeartbeatTest {

    private static final JobId JOB = JobId.of("first-heartbeat");
    /** Long enough that "at once" and "a period later" cannot be confused, even on a loaded machine. */
    private static final HeartbeatSettings SLOW = new HeartbeatSettings(Duration.ofSeconds(4), Duration.ofSeconds(40), 0.2);

    private final Vertx vertx = CanopyVertx.create();

    @AfterEach
    void close() {
        Await.result(vertx.close());
    }

    @Test
    void startSendsTheFirstHeartbeatsAtOnce() {
        long[] started = new long[1];
        long firstSend = firstSendAfter(monitor -> {
            started[0] = System.nanoTime();
            monitor.start(departure -> { }, (communicator, reason, by) -> { });
        });
        assertThat(Duration.ofNanos(firstSend - started[0])).isLessThan(Duration.ofMillis(3200));
    }

    @Test
    void theDeferredStartSendsTheFirstHeartbeatsOnlyAfterAPeriod() {
        long[] started = new long[1];
        long firstSend = firstSendAfter(monitor -> {
            started[0] = System.nanoTime();
            monitor.startHeartbeatsAfterAPeriod(departure -> { }, (communicator, reason, by) -> { });
        });
        // The period less its jitter (4 s - 20 %): a timer never fires early.
        assertThat(Duration.ofNanos(firstSend - started[0])).isGreaterThanOrEqualTo(Duration.ofMillis(3200));
    }

    /** Starts a monitor of a two-member job with {@code start}; returns when its first frame to the other was sent. */
    private long firstSendAfter(Consumer<FailureMonitor> start) {
        Transport transport = Await.result(VertxTransport.start(vertx, TransportOptions.defaults().withNodeLabel("self"),
                TransportSecurity.of(JobSecret.generate(), JOB)));
        Promise<Long> firstSend = Promise.promise();
        Transport recording = new TransportLayer(transport) {
            @Override
            public Future<Void> send(Member to, Frame frame) {
                firstSend.tryComplete(System.nanoTime());
                return super.send(to, frame);
            }
        };
        Member self = new Member(NodeId.of("self"), new Coordinates("wan", "a", "a", "a", "self"), transport.localAddress());
        // Nobody listens there: the send fails, which is beside the point (when it leaves is).
        Member other = new Member(NodeId.of("other"), new Coordinates("wan", "a", "a", "a", "other"),
                new NodeAddress("127.0.0.1", 9, 9));
        FailureMonitor monitor = new FailureMonitor(transport.context(), recording, JOB.frameKey(),
                MembershipView.startedWith(List.of(self, other)), self.id(), SLOW, NanoClock.SYSTEM, "self");
        try {
            start.accept(monitor);
            return Await.result(firstSend.future(), Duration.ofSeconds(30));
        } finally {
            monitor.stop();
            Await.result(transport.close());
        }
    }
}
