package dev.canopy.collectives.engine;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The contents of a {@link SiteExchange}'s aggregated messages (wire forms in its class comment),
 * built and split in time and memory linear in the blocks and bytes they carry: blocks are
 * collected with {@link RankBlocks#builder()}, read as {@link RankBlocks#sliced} views and copied
 * only into the message that carries them on. No network here.
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

    /**
     * Step 2: the message for the site whose members are {@code destinations}: by source, the blocks of
     * {@code bySource} (source rank to its off-site blocks by destination) for those members.
     */
    static Buffer forSite(SortedMap<Integer, RankBlocks> bySource, int[] destinations) {
        SortedMap<Integer, RankBlocks> selected = new TreeMap<>();
        bySource.forEach((source, byDestination) -> selected.put(source, byDestination.select(destinations)));
        return RankBlocks.encodeNested(selected);
    }

    /**
     * Step 3: splits the step-2 messages from the other sites' coordinators into one {@link RankBlocks}
     * per member (keyed by source), in the order of {@code members}. Blocks are slices of the messages.
     */
    static List<RankBlocks> perMember(List<Buffer> fromCoordinators, int[] members) {
        List<RankBlocks.Builder> forMember = new ArrayList<>(members.length);
        for (int i = 0; i < members.length; i++) {
            forMember.add(RankBlocks.builder());
        }
        for (Buffer message : fromCoordinators) {
            RankBlocks bySource = RankBlocks.sliced(message);
            for (int source : bySource.ranks()) {
                RankBlocks byDestination = RankBlocks.sliced(bySource.block(source));
                for (int i = 0; i < members.length; i++) {
                    forMember.get(i).put(source, byDestination.block(members[i]));
                }
            }
        }
        return forMember.stream().map(RankBlocks.Builder::build).toList();
    }
}
