package dev.canopy.multicast.internal.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every receiver gets every message exactly once, in order, byte-identical, on the emulated UD fabric
 * with 0, 1, 5 and 20 % loss, duplication and reordering, with and without random process skew of up
 * to 400 us per member and operation, and with members that post their receive buffers late. The
 * members run on simulated time, so timeouts and skew cost no wall-clock time.
 *
 * <p>The default run does 16 settings of 6,250 messages (100,000 in all); {@code -Pexhaustive} does
 * 1,000,000. The seed is printed; {@code -Dcanopy.seed=N} replays a run.
 */
class ReliableMulticastSimulationTest {

    private static final long SEED = Long.getLong("canopy.seed", System.nanoTime());
    private static final double[] FAULTS = {0, 0.01, 0.05, 0.20};
    private static final int[] SUB_GROUPS = {3, 1, 0, 2};
    static final MulticastOptions SIMULATED = MulticastOptions.DEFAULTS
            .withTimeouts(Duration.ofNanos(100 * SimulatedGroup.MICROS), Duration.ofMillis(1));

    @Test
    @Timeout(120)
    void everyReceiverGetsEveryMessageOnceInOrder() {
        runMatrix(6_250);
    }

    @Test
    @Tag("exhaustive")
    @Timeout(1800)
    void aMillionMessages() {
        runMatrix(62_500);
    }

    private static void runMatrix(int messagesPerSetting) {
        System.out.println("ReliableMulticastSimulationTest seed: " + SEED + " (replay with -Dcanopy.seed=" + SEED + ")");
        List<String> report = new ArrayList<>();
        long total = 0;
        long lateDrops = 0;
        int setting = 0;
        for (double faults : FAULTS) {
            for (long skew : new long[] {0, 400 * SimulatedGroup.MICROS}) {
                for (int latePosters : new int[] {0, 2}) {
                    int members = setting % 2 == 0 ? 8 : 10;
                    SimulatedGroup.Settings settings = new SimulatedGroup.Settings(members, SUB_GROUPS[setting % 4],
                            faults, skew, latePosters, 2_000 * SimulatedGroup.MICROS, messagesPerSetting, SIMULATED,
                            SEED + setting, -1);
                    SimulatedGroup group = new SimulatedGroup(settings);
                    report.add(runOne(group));
                    if (faults == 0 && skew == 0 && latePosters == 0) {
                        // Skewed ACK every M (default credits): far fewer ACKs than one per packet and receiver.
                        MulticastStats stats = group.totalStats();
                        assertThat(stats.feedbackSent()).as("ACKs (%s)", settings).isLessThan(
                                2 * stats.packetsMulticast() * (members - 1) / settings.options().ackEvery());
                    }
                    lateDrops += latePosters > 0 ? group.fabricStats().droppedNoBuffer() : 0;
                    total += messagesPerSetting;
                    setting++;
                }
            }
        }
        report.forEach(System.out::println);
        assertThat(total).isGreaterThanOrEqualTo(messagesPerSetting * 16L);
        assertThat(lateDrops).as("packets dropped at late posters for want of a posted buffer, then recovered").isPositive();
    }

    /** Runs one setting to completion and checks delivery, quiescence and buffer accounting. */
    static String runOne(SimulatedGroup group) {
        SimulatedGroup.Settings settings = group.settings;
        long started = System.nanoTime();
        group.start();
        boolean finished = group.simulation.runUntil(group::finished, Long.MAX_VALUE);
        assertThat(finished).as("all programs finished (%s)", settings).isTrue();
        assertThat(group.errors()).as("content errors (%s)", settings).isEmpty();
        for (int i = 0; i < settings.members(); i++) {
            assertThat(group.failure(i)).as("member %d failure (%s)", i, settings).isNull();
            assertThat(group.progress(i)).as("member %d progress (%s)", i, settings).isEqualTo(settings.messages());
        }
        long end = group.simulation.nanoTime();
        boolean quiet = group.simulation.runUntil(group::quiescent, end + Duration.ofSeconds(5).toNanos());
        assertThat(quiet).as("windows empty and receive buffers all posted again (%s)", settings).isTrue();
        for (ReliableMulticast member : group.members) {
            assertThat(member.queuedMessages()).as("no message delivered twice (%s)", settings).isZero();
        }
        MulticastStats stats = group.totalStats();
        assertThat(stats.malformedDropped()).isZero();
        // Bundled or not, every message is its own packets, each multicast once by its root.
        assertThat(stats.packetsMulticast()).as("packets multicast (%s)", settings).isEqualTo(group.packetsOfMessages());
        if (settings.faults() == 0 && settings.latePosters() == 0) {
            // Credits keep a root from overrunning posted buffers: nothing is lost, so nothing is retransmitted
            // because of the fabric (only ACKs delayed by skew can cause retransmissions).
            assertThat(group.fabricStats().droppedNoBuffer()).as("drops for want of a buffer (%s)", settings).isZero();
            if (settings.skewMaxNanos() == 0) {
                // Only a co-root window smaller than the credits in flight may retransmit early (forced).
                assertThat(stats.retransmissions() - stats.forcedRetransmissions())
                        .as("retransmissions after a timeout without faults or skew (%s)", settings).isZero();
            }
        }
        return String.format("%-95s %6.2f s wall, %7.1f ms simulated, %s, %s", settings,
                (System.nanoTime() - started) / 1e9, end / 1e6, stats, group.fabricStats());
    }
}
