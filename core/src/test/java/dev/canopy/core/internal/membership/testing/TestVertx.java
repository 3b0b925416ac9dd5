package dev.canopy.core.internal.membership.testing;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.concurrent.TimeUnit;

/** Vert.x for tests: a low maximum event-loop execute time, so that any blocking call is reported. */
public final class TestVertx {

    private TestVertx() {
    }

    public static Vertx create() {
        return Vertx.vertx(new VertxOptions()
                .setEventLoopPoolSize(2)
                .setMaxEventLoopExecuteTime(100)
                .setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
                .setBlockedThreadCheckInterval(100)
                .setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS));
    }
}
