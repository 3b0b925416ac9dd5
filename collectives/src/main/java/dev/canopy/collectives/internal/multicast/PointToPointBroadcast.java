package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.Collectives;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.Optional;

/** bcast over the collectives' point-to-point trees, optionally standing in for multicast (the fallback). */
public final class PointToPointBroadcast implements BroadcastLayer {

    private final Collectives collectives;
    private final Optional<String> fallback;

    public PointToPointBroadcast(Collectives collectives, Optional<String> fallback) {
        this.collectives = collectives;
        this.fallback = fallback;
    }

    @Override
    public Future<Buffer> bcast(Buffer data, int root) {
        return collectives.bcast(data, root);
    }

    @Override
    public String description() {
        return "point-to-point trees";
    }

    @Override
    public Optional<String> fallback() {
        return fallback;
    }

    @Override
    public void close() {
        // the collectives belong to the caller
    }
}
