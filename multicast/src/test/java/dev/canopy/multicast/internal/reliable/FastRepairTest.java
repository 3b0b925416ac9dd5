package dev.canopy.multicast.internal.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Gap-triggered fast repair: a leaf that sees a later packet before the one it expects asks its root or co-root
 * for the missing ones at once (NAK), so a lost copy in a stream costs a round trip, not a retransmission
 * timeout. The timeout here is a whole simulated second: without NAKs every loss would stall the window for
 * that long (5 % loss to each of 7 receivers over hundreds of packets: minutes of simulated time); with them
 * the run takes about one timeout at most (a stream's last packet has no later one to reveal its loss).
 * Sub-groups of 1 are left out: every member is then a co-root and gets every packet reliably anyway.
 */
@Timeout(60)
class FastRepairTest {

    private static final long SEED = Long.getLong("canopy.seed", 20261128L);
    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    @ParameterizedTest(name = "sub-groups of {0}")
    @ValueSource(ints = {0, 3})
    void aLostCopyIsRepairedWithinARoundTripNotATimeout(int subGroupSize) {
        System.out.println("FastRepairTest seed: " + SEED + " (replay with -Dcanopy.seed=" + SEED + ")");
        MulticastOptions options = MulticastOptions.DEFAULTS.withTimeouts(Duration.ofNanos(100 * SimulatedGroup.MICROS),
                TIMEOUT);
        SimulatedGroup group = new SimulatedGroup(new SimulatedGroup.Settings(8, subGroupSize, 0.05, 0, 0, 0, 1_500,
                options, SEED + subGroupSize, 0));
        System.out.println(ReliableMulticastSimulationTest.runOne(group));

        assertThat(group.fabricStats().lost()).as("copies lost on the fabric").isGreaterThan(100);
        assertThat(group.totalStats().retransmissions()).as("repairs").isGreaterThan(100);
        assertThat(group.simulation.nanoTime()).as("simulated time to deliver and drain everything")
                .isLessThan(3 * TIMEOUT.toNanos());
    }
}
