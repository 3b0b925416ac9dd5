package dev.canopy.dynamic;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;

/** Bounds a future by {@link DynamicOptions#timeout()}: past it, the future fails with a {@link DynamicTimeoutException} naming what waited. */
final class Deadline {

    private Deadline() {
    }

    static <T> Future<T> bound(Vertx vertx, Future<T> work, Duration timeout, String what) {
        Promise<T> bounded = Promise.promise();
        long timer = vertx.setTimer(timeout.toMillis(), id -> bounded.tryFail(new DynamicTimeoutException(what
                + " did not complete within " + timeout.toMillis() + " ms (DynamicOptions.timeout): is every member of"
                + " both groups calling it, and are they all alive?")));
        work.onComplete(result -> {
            vertx.cancelTimer(timer);
            if (result.succeeded()) {
                bounded.tryComplete(result.result());
            } else {
                bounded.tryFail(result.cause());
            }
        });
        return bounded.future();
    }
}
