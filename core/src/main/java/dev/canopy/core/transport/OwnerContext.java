package dev.canopy.core.transport;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import java.util.function.Supplier;

/** Runs work on the context that owns a piece of state, from whatever thread the caller is on. */
public final class OwnerContext {

    private OwnerContext() {
    }

    /**
     * Runs {@code action} on {@code owner} (directly when already there) and returns its future, whose callbacks
     * run on {@code owner} too. A context-less promise would run a callback added after completion on the
     * caller's thread (outside any event loop), so the promise is the owner's.
     */
    public static <T> Future<T> call(Context owner, Supplier<Future<T>> action) {
        if (Vertx.currentContext() == owner) {
            return action.get();
        }
        Promise<T> promise = ((ContextInternal) owner).promise();
        owner.runOnContext(v -> action.get().onComplete(promise));
        return promise.future();
    }
}
