package dev.canopy.cli.bench.multicast;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.multicast.BroadcastLayer;
import dev.canopy.collectives.internal.multicast.BroadcastLayers;
import dev.canopy.collectives.internal.multicast.MulticastFabrics;
import dev.canopy.core.comm.Communicator;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import dev.canopy.gridconfig.model.LevelAlgorithms;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The bench's multicast layer, opened up to {@code attempts} times until its probe works: the probe lasts 600 ms,
 * and on a loaded machine a member starved for longer misses it although multicast works. The members agree on
 * each outcome, so they retry together.
 *
 * <p>Each attempt runs on a communicator of its own, a split of {@code world} with the same members and ranks. The
 * leaf group's lease is keyed by the communicator's context id, and a failed attempt's owner releases it in the
 * background: a retry under the same key raced that release, found the old group's record after its lease was
 * gone ("names slot ..., which no lease holds") or found the old address, and fell back. The failed attempts'
 * communicators are not freed, so that no later split reuses their ids.
 */
final class LayerAttempts {

    /** The layer of the last attempt (multicast, or the trees with the reason) and why each earlier one failed. */
    record Opened(BroadcastLayer layer, List<String> failedAttempts) {
    }

    private final Communicator world;
    private final Function<Communicator, Collectives> collectivesOver;
    private final LevelAlgorithms levels;
    private final MulticastFabrics fabrics;
    private final MulticastOptions options;

    /** {@code collectivesOver} gives the collectives the layer runs beside (its barrier, its agreement) on a communicator. */
    LayerAttempts(Communicator world, Function<Communicator, Collectives> collectivesOver, LevelAlgorithms levels,
            MulticastFabrics fabrics, MulticastOptions options) {
        this.world = world;
        this.collectivesOver = collectivesOver;
        this.levels = levels;
        this.fabrics = fabrics;
        this.options = options;
    }

    /** Collective over {@code world}: every member calls it with the same {@code attempts}. */
    Future<Opened> open(int attempts) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1, got " + attempts);
        }
        return attempt(1, attempts, new ArrayList<>());
    }

    private Future<Opened> attempt(int attempt, int attempts, List<String> failed) {
        return world.split(0, world.rank())
                .<BroadcastLayer>compose(own -> BroadcastLayers.open(own, collectivesOver.apply(own), levels, fabrics, options))
                .compose(layer -> {
                    if (layer.fallback().isEmpty() || attempt == attempts) {
                        return Future.succeededFuture(new Opened(layer, List.copyOf(failed)));
                    }
                    failed.add("attempt " + attempt + ": " + layer.fallback().get());
                    layer.close();
                    return attempt(attempt + 1, attempts, failed);
                });
    }
}
