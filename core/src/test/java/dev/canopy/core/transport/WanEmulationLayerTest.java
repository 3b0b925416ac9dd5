package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.core.internal.emulation.LinkProfile;
import dev.canopy.core.internal.emulation.WanEmulation;
import dev.canopy.core.internal.emulation.WanEmulationLayer;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.Member;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real transports on 127.0.0.1 behind {@link WanEmulationLayer}s sharing one {@link WanEmulator}:
 * pings measure the configured RTT, bulk transfers the configured bandwidth, and a site's uplink
 * is shared by its nodes.
 */
@Tag("slow")
class WanEmulationLayerTest {

    private static final long SEED = 20261122L;

    // One event loop for all nodes, as in the in-process demo: on a 2-core machine shared with other
    // builds, waking a second loop thread for every loopback hop costs hundreds of microseconds of
    // real scheduling noise, which is not what these tests measure.
    private final TestNodes nodes = new TestNodes(1);
    private WanEmulator wan;

    @AfterEach
    void tearDown() {
        nodes.close();
        if (wan != null) {
            wan.close();
        }
    }

    /** A node: its emulated transport and the member others address it by. */
    private record Node(Transport transport, Member member, BlockingQueue<Frame> received, BlockingQueue<Long> arrivals) {
    }

    private Node node(String id, String site) {
        Transport real = nodes.start(id);
        Member member = TestNodes.member(id, site, real);
        Transport emulated = new WanEmulationLayer(real, wan, member.coordinates(), SEED + id.hashCode());
        BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
        BlockingQueue<Long> arrivals = new LinkedBlockingQueue<>();
        emulated.frameHandler(frame -> {
            arrivals.add(System.nanoTime());
            received.add(frame);
        });
        return new Node(emulated, member, received, arrivals);
    }

    /**
     * The emulator's accuracy target, a median within 1 ms of the configured RTT, holds on a quiet machine only:
     * under load every wake-up of an idle event loop is late by milliseconds, and the emulator's compensation,
     * estimated from recent hand-offs, lags the load (series of 50 ms pings had medians from 53 to 67 ms with
     * two `yes` processes beside the build). So the default run checks the delay within 10 % or 3 ms, which still
     * tells a right emulator from one that adds the RTT each way or half of it, and the 1 ms target runs with the
     * exhaustive tier.
     */
    @ParameterizedTest(name = "RTT {0} ms")
    @ValueSource(ints = {10, 50, 250})
    void aPingAcrossTheEmulatedWanTakesTheConfiguredRtt(int rttMs) {
        assertSomeSeriesHasItsMedianNear(rttMs, Math.max(0.10 * rttMs, 3.0));
    }

    @ParameterizedTest(name = "RTT {0} ms")
    @ValueSource(ints = {10, 50, 250})
    @Tag("exhaustive")
    void aPingAcrossTheEmulatedWanMeasuresTheConfiguredRttWithinAMillisecond(int rttMs) {
        assertSomeSeriesHasItsMedianNear(rttMs, 1.0);
    }

    private void assertSomeSeriesHasItsMedianNear(int rttMs, double toleranceMs) {
        wan = WanEmulator.start(WanEmulation.withDefaultRtt(500)
                .withLink("east", "west", LinkProfile.rtt(rttMs))
                .withLink("east", "south", LinkProfile.rtt(4)));
        Node a = node("a", "east");
        Node b = node("b", "west");
        Node warmUp = node("c", "south");
        // A short warm-up over another link: JIT and the emulator's hand-off lead settle as in a long-running node.
        pings(a, warmUp, 30);

        // The machine is shared with other builds: a burst of load can shift a whole series. A series is
        // repeated (at most five times) until its median is within the tolerance; an emulator that is off fails all.
        List<String> series = new ArrayList<>();
        for (int attempt = 0; attempt < 5; attempt++) {
            double[] rtts = pings(a, b, rttMs >= 250 ? 15 : 25);
            Arrays.sort(rtts);
            double median = rtts[rtts.length / 2];
            if (Math.abs(median - rttMs) <= toleranceMs) {
                return;
            }
            series.add("median " + median + " of " + Arrays.toString(rtts));
        }
        throw new AssertionError("the median RTT of every series of pings is more than " + toleranceMs
                + " ms from the configured " + rttMs + " ms: " + series);
    }

    /** Round-trip times in ms of {@code count} probes from {@code from} to {@code to}, which answers them. */
    private static double[] pings(Node from, Node to, int count) {
        to.transport().frameHandler(request -> to.transport().send(from.member(),
                new Frame(FrameType.PROBE_REPLY, request.job(), 0, 0, 1, 0, 0, request.sequence(), request.payload())));
        TestNodes.handlersInPlace(to.transport());
        double[] rtts = new double[count];
        for (int i = 0; i < count; i++) {
            // Timestamps on the sender's event loop, as a probe takes them: no test-thread hand-off measured.
            Frame request = new Frame(FrameType.PROBE_REQUEST, TestNodes.JOB, 0, 0, 0, 1, 0, i, Buffer.buffer(new byte[32]));
            BlockingQueue<Long> sentAt = new LinkedBlockingQueue<>();
            from.transport().context().runOnContext(v -> {
                sentAt.add(System.nanoTime());
                from.transport().send(to.member(), request);
            });
            Frame reply = Await.next(from.received());
            rtts[i] = (Await.next(from.arrivals()) - Await.next(sentAt)) / 1e6;
            assertThat(reply.sequence()).isEqualTo(i);
        }
        return rtts;
    }

    /** Opens the connection from {@code from} to {@code to} with one small frame, so no measurement includes it. */
    private static void connect(Node from, Node to) {
        Await.result(from.transport().send(to.member(), TestNodes.data(-1, 0)));
        Await.next(to.received());
        Await.next(to.arrivals());
    }

    @Test
    void trafficInsideASiteIsNotDelayed() {
        // The default link is 10 s each way, so "not delayed" needs no tight bound on a loaded machine.
        wan = WanEmulator.start(WanEmulation.withDefaultRtt(20_000));
        Node a = node("a", "east");
        Node b = node("b", "east");

        Await.result(a.transport().send(b.member(), TestNodes.data(1, 8)));

        assertThat(Await.next(b.received(), Duration.ofSeconds(5)).sequence()).isEqualTo(1);
    }

    /**
     * The emulator paces the frames, so they never arrive faster than the configured rate; a loaded machine
     * delivers them late, so slower is allowed down to 60 %, which still fails an emulator that takes twice the
     * transmission time. The ±10 % target of a quiet machine runs with the exhaustive tier. The rate is counted
     * from the first send, not the first arrival: a first frame that a loaded receiver reads late would
     * otherwise make the rest look faster than the link.
     */
    @Test
    void aBulkTransferSeesTheConfiguredBandwidth() {
        assertThat(bulkTransferMbps(40)).as("measured Mbps of a 40 Mbps link").isBetween(0.60 * 40, 1.10 * 40);
    }

    @Test
    @Tag("exhaustive")
    void aBulkTransferSeesTheConfiguredBandwidthWithinTenPercent() {
        assertThat(bulkTransferMbps(40)).isCloseTo(40, within(40 * 0.10));
    }

    @Test
    void aSitesUplinkIsSharedByAllItsNodes() {
        assertThat(sharedUplinkMbps(30)).as("both nodes together, through one 30 Mbps uplink")
                .isBetween(0.60 * 30, 1.10 * 30);
    }

    @Test
    @Tag("exhaustive")
    void aSitesUplinkIsSharedByAllItsNodesWithinTenPercent() {
        assertThat(sharedUplinkMbps(30)).isCloseTo(30, within(30 * 0.10));
    }

    /** 150 frames of 16 KiB over a link of {@code mbps} and 20 ms RTT: the rate they arrive at. */
    private double bulkTransferMbps(double mbps) {
        int oneWayMs = 10;
        wan = WanEmulator.start(WanEmulation.withDefaultRtt(500)
                .withLink("east", "west", LinkProfile.rtt(2 * oneWayMs).withBandwidthMbps(mbps)));
        Node a = node("a", "east");
        Node b = node("b", "west");
        int count = 150;
        Frame frame = TestNodes.data(0, 16 * 1024);
        connect(a, b);

        long start = System.nanoTime();
        List<Future<Void>> sends = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sends.add(a.transport().send(b.member(), frame.withSequence(i)));
        }
        Await.result(Future.all(sends));
        long last = 0;
        for (int i = 0; i < count; i++) {
            last = Await.next(b.arrivals());
        }
        return mbps(count * frame.encodedLength(), last - start - oneWayMs * 1_000_000L);
    }

    /** Two nodes of one site with an uplink of {@code uplinkMbps} each send 60 frames of 16 KiB to another site. */
    private double sharedUplinkMbps(double uplinkMbps) {
        int oneWayMs = 10;
        wan = WanEmulator.start(WanEmulation.withDefaultRtt(2 * oneWayMs).withUplinkMbps("east", uplinkMbps));
        Node a1 = node("a1", "east");
        Node a2 = node("a2", "east");
        Node west = node("w", "west");
        Node north = node("n", "north");
        int perSender = 60;
        Frame frame = TestNodes.data(0, 16 * 1024);
        connect(a1, west);
        connect(a2, north);

        long start = System.nanoTime();
        List<Future<Void>> sends = new ArrayList<>();
        for (int i = 0; i < perSender; i++) {
            sends.add(a1.transport().send(west.member(), frame.withSequence(i)));
            sends.add(a2.transport().send(north.member(), frame.withSequence(i)));
        }
        Await.result(Future.all(sends));
        long last = 0;
        for (int i = 0; i < perSender; i++) {
            last = Math.max(last, Math.max(Await.next(west.arrivals()), Await.next(north.arrivals())));
        }
        return mbps(2 * perSender * frame.encodedLength(), last - start - oneWayMs * 1_000_000L);
    }

    private static double mbps(long bytes, long nanos) {
        return bytes * 8.0 / (nanos / 1e9) / 1e6;
    }

    @Test
    void jitterNeverReordersReliableFrames() {
        wan = WanEmulator.start(WanEmulation.withDefaultRtt(500)
                .withLink("east", "west", LinkProfile.rtt(30).withJitter(25)));
        Node a = node("a", "east");
        Node b = node("b", "west");

        for (int i = 0; i < 300; i++) {
            a.transport().send(b.member(), TestNodes.data(i, 100));
        }

        for (int i = 0; i < 300; i++) {
            assertThat(Await.next(b.received()).sequence()).as("seed %d", SEED).isEqualTo(i);
        }
    }

    @Test
    void datagramsAreLostAtTheConfiguredRate() throws InterruptedException {
        // 1 Mbps paces the 64-byte datagrams at one per 0.5 ms, so the receiver's UDP buffer never overflows.
        wan = WanEmulator.start(WanEmulation.withDefaultRtt(500)
                .withLink("east", "west", LinkProfile.rtt(2).withLoss(0.25).withBandwidthMbps(1)));
        Node a = node("a", "east");
        Node b = node("b", "west");
        BlockingQueue<Datagram> datagrams = new LinkedBlockingQueue<>();
        b.transport().datagramHandler(datagrams::add);
        TestNodes.handlersInPlace(b.transport());
        int sent = 2_000;

        for (int i = 0; i < sent; i++) {
            Await.result(a.transport().sendDatagram(b.member(), TestNodes.data(i, 16)));
        }
        // The last datagrams leave about a second after the first; the end is two seconds without one (a loaded
        // receiver can pause for hundreds of milliseconds, which a shorter gap would take for the end).
        int received = 0;
        while (datagrams.poll(2, TimeUnit.SECONDS) != null) {
            received++;
        }

        // 1,500 expected; a binomial(2000, 0.75) stays within 1,500 +- 100 with overwhelming probability.
        assertThat(received).as("datagrams through a 25%% loss link, seed %d", SEED).isBetween(1_400, 1_600);
    }

    @Test
    void sendsToAGonePeerFailAtOnceThroughTheLayer() {
        // 10 s each way: failing within 5 s can only be failing without the emulated delay.
        wan = WanEmulator.start(WanEmulation.withDefaultRtt(20_000));
        Node a = node("a", "east");
        Node b = node("b", "west");

        a.transport().peerGone(b.member().id(), "crashed");

        assertThat(Await.failure(a.transport().send(b.member(), TestNodes.data(0, 8)), Duration.ofSeconds(5)))
                .isInstanceOf(PeerUnavailableException.class).hasMessageContaining("crashed");
    }

    @Test
    void aFrameSentJustBeforeCloseStillCrossesTheEmulatedWan() {
        // A leaving node says goodbye and closes: the goodbye must not be overtaken by the close.
        wan = WanEmulator.start(WanEmulation.withDefaultRtt(500).withLink("east", "west", LinkProfile.rtt(400)));
        Node a = node("a", "east");
        Node b = node("b", "west");
        connect(a, b);

        a.transport().send(b.member(), TestNodes.data(7, 8));
        Await.result(a.transport().close());

        assertThat(Await.next(b.received(), Duration.ofSeconds(10)).sequence()).isEqualTo(7);
    }
}
