package dev.canopy.collectives.run;

import dev.canopy.collectives.Blocking;
import dev.canopy.core.node.CanopyNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Entry point for programs with a plain {@code main}: {@code try (CanopySession s = Canopy.join(options)) {...}}.
 * {@code canopy launch} starts such programs with {@link JoinOptions#fromEnvironment} options.
 */
public final class Canopy {

    private Canopy() {
    }

    /** Joins the job and waits at its start barrier (blocking: call it from main, not from an event loop). */
    public static CanopySession join(JoinOptions options) {
        return Blocking.await(joinAsync(Vertx.vertx(), options));
    }

    /** Joins the job on {@code vertx}; the session closes {@code vertx} when it closes. */
    public static Future<CanopySession> joinAsync(Vertx vertx, JoinOptions options) {
        return CanopyNode.start(vertx, options.nodeOptions())
                .compose(node -> node.join()
                        .map(world -> new CanopySession(vertx, node, world, options.grid()))
                        .onFailure(e -> node.close()));
    }
}
