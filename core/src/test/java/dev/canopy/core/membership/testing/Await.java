package dev.canopy.core.membership.testing;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waiting in tests: for a condition or a future, always with a deadline, never a bare sleep. */
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

    /** The result of {@code future}, or an AssertionError after {@code deadline}. */
    public static <T> T result(Future<T> future, Duration deadline) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("future failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("future not complete within " + deadline.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The failure of {@code future}, or an AssertionError if it succeeds or is not done by {@code deadline}. */
    public static Throwable failure(Future<?> future, Duration deadline) {
        try {
            Object value = future.toCompletionStage().toCompletableFuture().get(deadline.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("expected a failure but the future succeeded with " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("future neither failed nor succeeded within " + deadline.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
