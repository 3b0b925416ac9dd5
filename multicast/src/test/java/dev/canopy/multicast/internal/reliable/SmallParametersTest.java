package dev.canopy.multicast.internal.reliable;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The edges of the parameter space, where off-by-one errors in windows, credits and ACK points hide:
 * windows and credits of 1 to 8 packets, ACK every 1 to credits packets, every sub-group size from 1
 * to the whole group, 2 to 9 members, up to 30 % faults, skew and a late poster, drawn at random (the
 * seed is printed). Each run must deliver every message once, in order, and free every buffer.
 */
class SmallParametersTest {

    private static final long SEED = Long.getLong("canopy.seed", System.nanoTime());

    @Test
    @Timeout(120)
    void tinyWindowsCreditsAndSubGroups() {
        run(40);
    }

    @Test
    @Tag("exhaustive")
    @Timeout(900)
    void aThousandTinyConfigurations() {
        run(1_000);
    }

    private static void run(int runs) {
        System.out.println("SmallParametersTest seed: " + SEED + " (replay with -Dcanopy.seed=" + SEED + ")");
        SplittableRandom random = new SplittableRandom(SEED);
        for (int run = 0; run < runs; run++) {
            int members = 2 + random.nextInt(8);
            int credits = 1 + random.nextInt(8);
            MulticastOptions options = new MulticastOptions(1 + random.nextInt(8), credits, 1 + random.nextInt(credits),
                    Duration.ofNanos(100 * SimulatedGroup.MICROS), Duration.ofMillis(1), 0,
                    MulticastOptions.DEFAULTS.latencyModel(), 1 << 20);
            double[] faults = {0, 0.1, 0.3};
            SimulatedGroup.Settings settings = new SimulatedGroup.Settings(members, 1 + random.nextInt(members),
                    faults[random.nextInt(3)], random.nextBoolean() ? 0 : 200 * SimulatedGroup.MICROS,
                    random.nextInt(2), 1_000 * SimulatedGroup.MICROS, 300, options, SEED + run, -1);
            String report = ReliableMulticastSimulationTest.runOne(new SimulatedGroup(settings));
            if (run % 10 == 0) {
                System.out.println("window " + options.window() + ", credits " + credits + ", M " + options.ackEvery()
                        + ": " + report);
            }
        }
    }
}
