package dev.canopy.core.testing;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waiting in tests: for a condition, a future or a queue, always with a deadline, never a bare sleep.
 * Shared with the other modules' tests through core's test jar.
 */
public final class Await {

    /** The deadline of the overloads that take none. */
    public static final Duration DEFAULT = Duration.ofSeconds(30);

    private static final long POLL_MILLIS = 10;

    private Await() {
    }

    /** Polls {@code condition} until it holds; fails with {@code description} after {@link #DEFAULT}. */
    public static void until(BooleanSupplier condition, Supplier<String> description) {
        until(DEFAULT, condition, description);
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

    public static <T> T result(Future<T> future) {
        return result(future, DEFAULT);
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

    public static Throwable failure(Future<?> future) {
        return failure(future, DEFAULT);
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

    public static <T> T next(BlockingQueue<T> queue) {
        return next(queue, DEFAULT);
    }

    /** The next element of {@code queue}, or an AssertionError if none arrives within {@code deadline}. */
    public static <T> T next(BlockingQueue<T> queue, Duration deadline) {
        try {
            T item = queue.poll(deadline.toMillis(), TimeUnit.MILLISECONDS);
            if (item == null) {
                throw new AssertionError("nothing arrived within " + deadline.toMillis() + " ms");
            }
            return item;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
