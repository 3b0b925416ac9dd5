package dev.canopy.probes;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waiting in probe tests: for a condition or a future, always with a deadline, never a bare sleep. */
public final class Await {

    private static final long POLL_MILLIS = 10;

    private Await() {
    }

    /** Polls {@code condition} until it holds; fails with {@code description} after {@code deadline}. */
    public static void until(Duration deadline, BooleanSupplier condition, Supplier<String> description) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + deadline.toMillis() + " ms: " + description.get());
            }
            try {
                TimeUnit.MILLISECONDS.sleep(POLL_MILLIS); // polling interval of a deadline wait, not synchronisation
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for: " + description.get(), e);
            }
        }
    }

    /** The result of {@code future}, or an AssertionError after a deadline of ten seconds. */
    public static <T> T result(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("future failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("future not complete within 10 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
