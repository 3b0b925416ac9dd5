package dev.canopy.collectives.leader;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waiting in tests: for a condition or a future, always with a deadline, never a bare sleep. */
final class Await {

    static final Duration WAIT = Duration.ofSeconds(30);
    private static final long POLL_MILLIS = 10;

    private Await() {
    }

    /** Polls {@code condition} until it holds; fails with {@code description} after {@link #WAIT}. */
    static void until(BooleanSupplier condition, Supplier<String> description) {
        long end = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + WAIT.toMillis() + " ms: " + description.get());
            }
            try {
                TimeUnit.MILLISECONDS.sleep(POLL_MILLIS); // polling interval of a deadline wait, not synchronisation
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for: " + description.get(), e);
            }
        }
    }

    /** The result of {@code future}, or an AssertionError after {@link #WAIT}. */
    static <T> T result(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("future failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("future not complete within " + WAIT.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The failure of {@code future}; an AssertionError if it succeeds. */
    static Throwable failure(Future<?> future) {
        try {
            Object value = future.toCompletionStage().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("expected a failure but the future succeeded with " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("future neither failed nor succeeded within " + WAIT.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
