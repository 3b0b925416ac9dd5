package dev.canopy.collectives.internal.loop;

import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.transport.TransportSecurity;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

/**
 * Starts a node on an event loop of its own, for programs that run several nodes in one JVM (the emulated grids of
 * the benchmarks, the demo). Vert.x 5 binds a non-Vert.x thread to one event loop: every node a plain thread starts
 * with {@link CanopyNode#start(Vertx, NodeOptions)} gets a context of its own, but all those contexts run on that
 * one loop, so N members take turns on one core however many the machine has. Each node here is started from its
 * own deployment instead, whose context Vert.x places on the next loop of its pool, as separate processes would
 * each have theirs. The deployment holds nothing but the node's context; it ends when Vert.x closes (close the
 * node first, as before).
 */
public final class OwnEventLoop {

    private OwnEventLoop() {
    }

    /** {@link CanopyNode#start(Vertx, NodeOptions)} on a new context, on the next event loop of {@code vertx}. */
    public static Future<CanopyNode> startNode(Vertx vertx, NodeOptions options) {
        if (Vertx.currentContext() == null) {
            // CanopyNode.start does this only when called off the loops; it is called on one here.
            TransportSecurity.prepareCrypto();
        }
        Promise<CanopyNode> started = Promise.promise();
        // Called on the deployment's context: the node takes that context as its own.
        vertx.deployVerticle(context -> CanopyNode.start(vertx, options).onComplete(started))
                .onFailure(started::tryFail);
        return started.future();
    }
}
