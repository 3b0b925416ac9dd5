package dev.canopy.core.transport;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits for futures and queues with deadlines; tests never sleep. */
final class Await {

    static final Duration DEFAULT = Duration.ofSeconds(20);

    private Await() {
    }

    static <T> T result(Future<T> future) {
        return result(future, DEFAULT);
    }

    static <T> T result(Future<T> future, Duration timeout) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("future failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("future not complete after " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    static Throwable failure(Future<?> future, Duration timeout) {
        try {
            Object value = future.toCompletionStage().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("future succeeded with " + value + ", expected a failure");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("future not complete after " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    static <T> T next(BlockingQueue<T> queue) {
        return next(queue, DEFAULT);
    }

    static <T> T next(BlockingQueue<T> queue, Duration timeout) {
        try {
            T item = queue.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (item == null) {
                throw new AssertionError("nothing arrived within " + timeout);
            }
            return item;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
