package dev.canopy.core.internal.failure;

import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportLayer;
import io.vertx.core.Future;

/**
 * Lets a test crash a node in this JVM the way {@code kill -9} crashes a process, as far as its peers can
 * tell: {@link #crash()} closes the real transport underneath, so every connection resets with no goodbye,
 * while the node's ZooKeeper session (and member znode) stays.
 */
final class CrashLayer extends TransportLayer {

    CrashLayer(Transport below) {
        super(below);
    }

    Future<Void> crash() {
        return below.close();
    }
}
