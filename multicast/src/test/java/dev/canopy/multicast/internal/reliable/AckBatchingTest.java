package dev.canopy.multicast.internal.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.link.InProcessLinks;
import dev.canopy.multicast.internal.loop.OwnerLoop;
import dev.canopy.multicast.internal.simulation.SimulatedLoop;
import dev.canopy.multicast.internal.simulation.Simulation;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ACK batching: a receiver that was busy while packets arrived handles them as one batch, and the ACK points it
 * passes in that batch make one report, sent at the batch's end; a receiver that keeps up reports at each point.
 */
@Timeout(30)
class AckBatchingTest {

    private static final long MICROS = 1_000L;
    private static final int PACKETS = 16;
    /** ACK every 2 packets: 8 ACK points in 16 packets; the ACK delay is far longer than the test. */
    private static final MulticastOptions OPTIONS = new MulticastOptions(64, 32, 2, Duration.ofSeconds(10),
            Duration.ofSeconds(20), 0, MulticastOptions.DEFAULTS.latencyModel(), 1 << 20);

    @Test
    void aBusyReceiverAcknowledgesABatchOfPacketsOnce() {
        assertThat(feedbackFromReceiver(true)).isEqualTo(1);
    }

    @Test
    void aReceiverThatKeepsUpAcknowledgesAtEveryAckPoint() {
        assertThat(feedbackFromReceiver(false)).isEqualTo(PACKETS / OPTIONS.ackEvery());
    }

    @Test
    void theAckDelayTimerIsArmedOnceWhileTheStreamFlowsNotOncePerAckPoint() {
        CountingLoop.Counts timers = new CountingLoop.Counts();

        assertThat(feedbackFromReceiver(false, timers)).isEqualTo(PACKETS / OPTIONS.ackEvery());

        // Before, each report cancelled the timer and the next packet armed a new one: 8 of each here.
        assertThat(timers.scheduled).isEqualTo(1);
        assertThat(timers.cancelled).isZero();
    }

    private static long feedbackFromReceiver(boolean receiverBusy) {
        return feedbackFromReceiver(receiverBusy, new CountingLoop.Counts());
    }

    /**
     * Root 0 multicasts 16 one-packet messages, 20 us apart, to rank 1; returns the FEEDBACK messages rank 1 sent.
     * {@code receiverTimers} counts the timers rank 1's substrate schedules and cancels.
     */
    private static long feedbackFromReceiver(boolean receiverBusy, CountingLoop.Counts receiverTimers) {
        Simulation simulation = new Simulation();
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.perfect(), simulation, simulation.wire());
        List<SimulatedLoop> loops = List.of(simulation.newLoop("root"), simulation.newLoop("receiver"));
        InProcessLinks links = new InProcessLinks(loops, 5 * MICROS);
        List<ReliableMulticast> members = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            members.add(ReliableMulticast.create(SimulatedGroup.COMMUNICATOR, SimulatedGroup.GROUP,
                    fabric.attach("member-" + rank, loops.get(rank)), links.link(rank),
                    rank == 1 ? new CountingLoop(loops.get(rank), receiverTimers) : loops.get(rank), OPTIONS));
            members.get(rank).start();
        }
        ReliableMulticast root = members.get(0);
        ReliableMulticast receiver = members.get(1);
        assertThat(simulation.runUntil(() -> receiver.postedReceiveBuffers() == 32, MICROS)).isTrue();
        if (receiverBusy) {
            loops.get(1).busyFor(500 * MICROS); // every packet arrives while it computes
        }
        List<Buffer> received = new ArrayList<>();
        long start = simulation.nanoTime();
        for (int i = 0; i < PACKETS; i++) { // one every 20 us; one message per packet: 2 do not fit the MTU
            simulation.at(start + i * 20 * MICROS, () -> loops.get(0).execute(() -> root.broadcast(
                    Buffer.buffer(new byte[1_000]))));
        }
        loops.get(1).execute(() -> {
            for (int i = 0; i < PACKETS; i++) {
                receiver.receive(0).onSuccess(received::add);
            }
        });
        long deadline = simulation.nanoTime() + 1_000 * MICROS;
        assertThat(simulation.runUntil(() -> received.size() == PACKETS && root.windowSlotsInUse() == 0, deadline))
                .as("all delivered and acknowledged").isTrue();
        assertThat(root.stats().packetsMulticast()).isEqualTo(PACKETS);
        return receiver.stats().feedbackSent();
    }

    /** An owner loop that counts the timers scheduled and cancelled through it. */
    private record CountingLoop(OwnerLoop loop, Counts counts) implements OwnerLoop {

        static final class Counts {
            int scheduled;
            int cancelled;
        }

        @Override
        public void execute(Runnable task) {
            loop.execute(task);
        }

        @Override
        public Timer schedule(long delayNanos, Runnable task) {
            counts.scheduled++;
            Timer timer = loop.schedule(delayNanos, task);
            return () -> {
                counts.cancelled++;
                timer.cancel();
            };
        }

        @Override
        public long nanoTime() {
            return loop.nanoTime();
        }
    }
}
