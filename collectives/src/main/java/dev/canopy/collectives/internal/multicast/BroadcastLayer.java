package dev.canopy.collectives.internal.multicast;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.Optional;

/**
 * How a communicator's bcast moves its bytes: over multicast inside the leaf groups the level file
 * asks for ({@link MulticastBroadcast}), or over the point-to-point trees ({@link PointToPointBroadcast}).
 * Every member gets the same kind (they agree when the layer is opened), and calls {@link #bcast} in the
 * same order, as with MPI.
 */
public interface BroadcastLayer extends AutoCloseable {

    /** At {@code root}, sends {@code data}; elsewhere returns the root's bytes. */
    Future<Buffer> bcast(Buffer data, int root);

    /** What runs: e.g. "multicast (emulated-ud) in cluster groups" or "point-to-point trees". */
    String description();

    /** Why multicast is not used although the level file asks for it; empty when it is used or not asked for. */
    Optional<String> fallback();

    @Override
    void close();
}
