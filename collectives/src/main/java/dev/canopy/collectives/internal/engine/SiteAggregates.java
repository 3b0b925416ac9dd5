package dev.canopy.collectives.internal.engine;

import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * The first aggregate of a {@link SiteExchange}: what a member sends its site's coordinator, built
 * with {@link RankBlocks#builder()} in time linear in the blocks. The coordinators' aggregates are
 * sorted and passed on by {@link RelayedBlocks}. No network here.
 */
final class SiteAggregates {

    private SiteAggregates() {
    }

    /** Step 1: of the blocks {@code source} holds for every rank, those for ranks of other sites, keyed by destination. */
    static RankBlocks offSite(List<Buffer> blocks, Sites sites, int source) {
        RankBlocks.Builder offSite = RankBlocks.builder();
        for (int destination = 0; destination < blocks.size(); destination++) {
            if (!sites.sameSite(source, destination)) {
                offSite.put(destination, blocks.get(destination));
            }
        }
        return offSite.build();
    }
}
