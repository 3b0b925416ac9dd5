package dev.canopy.collectives;

import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Waits for a future on a plain thread, for MPI-style programs. Refuses to run on a Vert.x event
 * loop (it would block it); rethrows the future's failure as it is (e.g. a
 * {@link CollectiveFailedException}) with the waiting thread's stack as a suppressed trace.
 */
public final class Blocking {

    private Blocking() {
    }

    public static <T> T await(Future<T> future) {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException("Blocking.await called on an event loop thread; compose the future instead");
        }
        try {
            return future.toCompletionStage().toCompletableFuture().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CompletionException("interrupted while waiting for a collective", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                runtime.addSuppressed(new Exception("waited for here"));
                throw runtime;
            }
            throw new CompletionException(cause);
        }
    }
}
