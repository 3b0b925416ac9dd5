package dev.canopy.core.internal.emulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.testing.ManualClock;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The emulator's queueing arithmetic and latency compensation, on a clock the test moves. */
class WanEmulatorTest {

    private final ManualClock clock = new ManualClock(1_000_000_000L);
    private final DelayScheduler unused = new DelayScheduler() {
        @Override
        public void schedule(long deadlineNanos, Runnable task) {
            throw new AssertionError("the emulator itself schedules nothing");
        }

        @Override
        public void close() {
        }
    };

    private WanEmulator emulator(WanEmulation config) {
        return new WanEmulator(config, clock, unused);
    }

    @Test
    void aChangedLinkAppliesToBothDirectionsAndLeavesTheOthers() {
        WanEmulator wan = emulator(WanEmulation.withDefaultRtt(20).withLink("a", "b", LinkProfile.rtt(30)));

        wan.changeLink("a", "b", LinkProfile.rtt(150).withBandwidthMbps(100));

        assertThat(wan.config().roundTripMs("a", "b")).isEqualTo(150);
        assertThat(wan.config().roundTripMs("b", "a")).isEqualTo(150);
        assertThat(wan.config().roundTripMs("a", "c")).isEqualTo(20);
        assertThat(wan.transmit("b", "a", 125_000) - clock.nanoTime()).as("the new bandwidth holds")
                .isEqualTo(10_000_000L);
    }

    @Test
    void aMessageOccupiesItsLinkForItsSizeOverTheBandwidth() {
        WanEmulator wan = emulator(WanEmulation.withDefaultRtt(20)
                .withLink("a", "b", LinkProfile.rtt(20).withBandwidthMbps(100)));

        // 125,000 bytes = 1,000,000 bits at 100 Mbps = 10 ms.
        assertThat(wan.transmit("a", "b", 125_000) - clock.nanoTime()).isEqualTo(10_000_000L);
    }

    @Test
    void messagesQueueBehindEarlierOnesOnTheSameLink() {
        WanEmulator wan = emulator(WanEmulation.withDefaultRtt(20)
                .withLink("a", "b", LinkProfile.rtt(20).withBandwidthMbps(100)));
        long start = clock.nanoTime();

        wan.transmit("a", "b", 125_000);
        clock.advanceNanos(4_000_000L);
        long second = wan.transmit("a", "b", 125_000);

        assertThat(second - start).isEqualTo(20_000_000L);
        assertThat(wan.transmit("b", "a", 125_000) - clock.nanoTime()).as("the other direction is another link")
                .isEqualTo(10_000_000L);
    }

    @Test
    void anIdleLinkStartsAtTheCurrentTime() {
        WanEmulator wan = emulator(WanEmulation.withDefaultRtt(20)
                .withLink("a", "b", LinkProfile.rtt(20).withBandwidthMbps(100)));
        wan.transmit("a", "b", 125_000);

        clock.advanceNanos(50_000_000L);

        assertThat(wan.transmit("a", "b", 125_000) - clock.nanoTime()).isEqualTo(10_000_000L);
    }

    @Test
    void aSitesUplinkIsSharedByItsTrafficToEveryOtherSite() {
        WanEmulator wan = emulator(WanEmulation.withDefaultRtt(20)
                .withLink("a", "b", LinkProfile.rtt(20).withBandwidthMbps(1000))
                .withLink("a", "c", LinkProfile.rtt(20).withBandwidthMbps(1000))
                .withUplinkMbps("a", 100));
        long start = clock.nanoTime();

        long toB = wan.transmit("a", "b", 125_000);
        long toC = wan.transmit("a", "c", 125_000);

        assertThat(toB - start).as("limited by the 100 Mbps uplink, not the 1 Gbps link").isEqualTo(10_000_000L);
        assertThat(toC - start).as("queued behind the message to b on the shared uplink").isEqualTo(20_000_000L);
        assertThat(wan.transmit("b", "a", 125_000) - start).as("b's uplink is not a's").isEqualTo(1_000_000L);
    }

    @Test
    void theSlowerOfUplinkAndLinkSetsThePace() {
        WanEmulator wan = emulator(WanEmulation.withDefaultRtt(20)
                .withLink("a", "b", LinkProfile.rtt(20).withBandwidthMbps(50))
                .withUplinkMbps("a", 100));
        long start = clock.nanoTime();

        assertThat(wan.transmit("a", "b", 125_000) - start).isEqualTo(20_000_000L);
        assertThat(wan.transmit("a", "b", 125_000) - start).isEqualTo(40_000_000L);
    }

    @Test
    void unlimitedLinksTransmitAtOnce() {
        WanEmulator wan = emulator(WanEmulation.withDefaultRtt(20));

        assertThat(wan.transmit("a", "b", 10_000_000)).isEqualTo(clock.nanoTime());
    }

    @Test
    void framesAndDatagramsAreStartedEarlyByTheirOwnMeasuredHop() {
        List<Long> scheduledAt = new ArrayList<>();
        DelayScheduler capturing = new DelayScheduler() {
            @Override
            public void schedule(long deadlineNanos, Runnable task) {
                scheduledAt.add(deadlineNanos); // the task is not run: only when it would fire matters here
            }

            @Override
            public void close() {
            }
        };
        WanEmulator wan = new WanEmulator(WanEmulation.withDefaultRtt(20), clock, capturing);
        NodeAddress receiver = new NodeAddress("127.0.0.1", 4000, 4001);
        wan.addReceiver(receiver);
        Frame frame = new Frame(FrameType.DATA, 1, 1, 0, 0, 1, 0, 0, Buffer.buffer());
        for (int i = 0; i < LatencyEstimate.WINDOW; i++) {
            Frame next = frame.withSequence(i);
            // A frame waits behind bulk data on its connection (600 µs); a datagram goes at once (50 µs).
            wan.sending(WanEmulator.Hop.FRAME, receiver, next);
            wan.sending(WanEmulator.Hop.DATAGRAM, receiver, next);
            clock.advanceNanos(50_000);
            wan.arrived(WanEmulator.Hop.DATAGRAM, receiver, next);
            clock.advanceNanos(550_000);
            wan.arrived(WanEmulator.Hop.FRAME, receiver, next);
        }

        long deadline = clock.nanoTime() + 10_000_000;
        wan.runAt(null, deadline, WanEmulator.Hop.FRAME, () -> { });
        wan.runAt(null, deadline, WanEmulator.Hop.DATAGRAM, () -> { });
        wan.runAt(null, deadline, WanEmulator.Hop.LOCAL, () -> { });

        assertThat(scheduledAt).containsExactly(deadline - 600_000, deadline - 50_000, deadline);
    }

    @Test
    void configurationErrorsNameTheField() {
        assertThatThrownBy(() -> LinkProfile.rtt(-1)).hasMessageContaining("rtt_ms");
        assertThatThrownBy(() -> LinkProfile.rtt(10).withLoss(1.5)).hasMessageContaining("loss");
        assertThatThrownBy(() -> LinkProfile.rtt(10).withBandwidthMbps(0)).hasMessageContaining("bandwidth_mbps");
        assertThatThrownBy(() -> WanEmulation.withDefaultRtt(10).withUplinkMbps("a", -3)).hasMessageContaining("uplink_mbps");
        assertThatThrownBy(() -> WanEmulation.withDefaultRtt(10).withLink("a", "a", LinkProfile.rtt(1)))
                .hasMessageContaining("two different sites");
    }

    @Test
    void pairsNotListedUseTheDefaultAndOneWayLinksAreOneWay() {
        WanEmulation config = WanEmulation.withDefaultRtt(100).withOneWayLink("a", "b", LinkProfile.rtt(40));

        assertThat(config.link("a", "b").rttMs()).isEqualTo(40);
        assertThat(config.link("b", "a").rttMs()).isEqualTo(100);
        assertThat(config.link("a", "c").rttMs()).isEqualTo(100);
    }
}
