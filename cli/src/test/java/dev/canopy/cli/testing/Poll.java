package dev.canopy.cli.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition with a deadline, for the cli's tests. (core's test jar has the same helper, but
 * its logback-test.xml on this module's test classpath would change what child JVMs print.)
 */
public final class Poll {

    private Poll() {
    }

    public static void until(Duration deadline, BooleanSupplier condition, Supplier<String> description) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + deadline.toMillis() + " ms: " + description.get());
            }
            try {
                TimeUnit.MILLISECONDS.sleep(20); // polling interval of a deadline wait, not synchronisation
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for: " + description.get(), e);
            }
        }
    }
}
