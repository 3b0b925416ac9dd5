package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.Collectives;
import dev.canopy.multicast.internal.reliable.MulticastStats;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.Optional;

/**
 * A stand-alone {@link BroadcastLayer} whose bcast multicasts: {@code Collectives.bcast} of collectives whose
 * {@link MulticastPath} the level file's choices opened ({@link BroadcastLayers#open}). It shares the sequence
 * of the collectives it was opened from, so members must call both in the same order.
 */
public final class MulticastBroadcast implements BroadcastLayer {

    private final Collectives collectives;
    private final MulticastPath path;

    MulticastBroadcast(Collectives collectives, MulticastPath path) {
        this.collectives = collectives;
        this.path = path;
    }

    @Override
    public Future<Buffer> bcast(Buffer data, int root) {
        return collectives.bcast(data, root);
    }

    /** The substrate's counters (zeros in a group of one). */
    public Future<MulticastStats> stats() {
        return path.stats().map(MulticastPath.Stats::substrate);
    }

    /** The path under {@link #bcast}, with its counts of bcasts by carrier. */
    public MulticastPath path() {
        return path;
    }

    @Override
    public String description() {
        return path.description();
    }

    @Override
    public Optional<String> fallback() {
        return Optional.empty();
    }

    @Override
    public void close() {
        path.close();
    }
}
