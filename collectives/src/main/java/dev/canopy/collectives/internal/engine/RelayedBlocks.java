package dev.canopy.collectives.internal.engine;

import dev.canopy.collectives.data.MalformedMessageException;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The blocks one site coordinator holds while {@link SiteExchange} relays the aggregates along
 * {@link SiteRoutes}, sorted as they come in by where their route goes next: to a member of this
 * site, or on to the next coordinator in the next round. Every message between coordinators has
 * the form of step 2 (rank blocks keyed by source whose blocks are rank blocks keyed by
 * destination), whatever aggregates it combines: sources and destinations tell them apart.
 *
 * <p>Time and memory are linear in the blocks and bytes: blocks stay slices of the message that
 * brought them and are copied once, into the message that carries them on. A block that is not on
 * its route here is a bug when this site sorts its own blocks, and a malformed message when another
 * coordinator sent it, reported with the route. Confined to the coordinator's context; no network
 * here.
 */
final class RelayedBlocks {

    private final Sites sites;
    private final SiteRoutes routes;
    private final int site;
    private final Map<Integer, RankBlocks.Builder> forMember = new HashMap<>();
    /** By {@code round * siteCount + next site}: the blocks to send there, by source. */
    private final Map<Integer, SortedMap<Integer, RankBlocks.Builder>> onward = new HashMap<>();

    RelayedBlocks(Sites sites, SiteRoutes routes, int site) {
        this.sites = sites;
        this.routes = routes;
        this.site = site;
    }

    /** This site's blocks for other sites (round 0 of their routes), by source rank, then by destination rank. */
    void sortOwn(SortedMap<Integer, RankBlocks> bySource) {
        bySource.forEach((source, byDestination) -> sort(0, site, source, byDestination, Origin.OWN));
    }

    /**
     * The message the coordinator of {@code fromSite} sent this one in {@code round}; a block for a
     * rank outside the communicator, off its route or received twice is a {@link MalformedMessageException}.
     */
    void sortReceived(int round, int fromSite, Buffer message) {
        RankBlocks bySource = RankBlocks.sliced(message);
        for (int source : bySource.ranks()) {
            sort(round, fromSite, source, RankBlocks.sliced(bySource.block(source)), Origin.RECEIVED);
        }
    }

    /** Whether blocks being sorted are this site's own (a problem is a bug) or were received (malformed). */
    private enum Origin { OWN, RECEIVED }

    private void sort(int round, int fromSite, int source, RankBlocks byDestination, Origin from) {
        checkRank(source);
        int origin = sites.siteOf(source);
        for (int destination : byDestination.ranks()) {
            checkRank(destination);
            int destinationSite = sites.siteOf(destination);
            if (!onRoute(round, fromSite, origin, destinationSite)) {
                String problem = "the coordinator of site " + site + " got the block of rank " + source
                        + " for rank " + destination + " from site " + fromSite + " in round " + round
                        + ", off its route " + (origin == destinationSite ? "(both ranks are of one site)"
                                : !routes.carries(origin, destinationSite) ? "(no route carries that pair)"
                                : Arrays.toString(routes.path(origin, destinationSite)));
                throw from == Origin.RECEIVED ? new MalformedMessageException(problem) : new IllegalStateException(problem);
            }
            Buffer block = byDestination.block(destination);
            if (routes.hops(origin, destinationSite) == round) {
                forMember.computeIfAbsent(destination, member -> RankBlocks.builder()).putReceived(source, block);
            } else {
                int next = routes.siteAfter(origin, destinationSite, round + 1);
                onward.computeIfAbsent((round + 1) * routes.siteCount() + next, key -> new TreeMap<>())
                        .computeIfAbsent(source, key -> RankBlocks.builder())
                        .putReceived(destination, block);
            }
        }
    }

    private void checkRank(int rank) {
        if (rank >= sites.size()) {
            throw new MalformedMessageException("a relayed block names rank " + rank + " of a " + sites.size()
                    + "-member communicator");
        }
    }

    /** Whether hop {@code round} of the route from {@code origin} to {@code destinationSite} came from {@code fromSite} to here. */
    private boolean onRoute(int round, int fromSite, int origin, int destinationSite) {
        return routes.carries(origin, destinationSite) && round <= routes.hops(origin, destinationSite)
                && routes.siteAfter(origin, destinationSite, round) == site
                && (round == 0 || routes.siteAfter(origin, destinationSite, round - 1) == fromSite);
    }

    /**
     * The message to the coordinator of {@code toSite} in {@code round}, once every block for it has
     * been sorted; the blocks are copied into it and forgotten here.
     */
    Buffer onward(int round, int toSite) {
        SortedMap<Integer, RankBlocks.Builder> bySource = onward.remove(round * routes.siteCount() + toSite);
        if (bySource == null) {
            throw new IllegalStateException("the coordinator of site " + site + " has no blocks for site " + toSite
                    + " in round " + round + ", where the routes send it some");
        }
        SortedMap<Integer, RankBlocks> built = new TreeMap<>();
        bySource.forEach((source, byDestination) -> built.put(source, byDestination.build()));
        return RankBlocks.encodeNested(built);
    }

    /** The blocks from other sites for each member of this site (in member order), by source; slices. */
    List<RankBlocks> perMember() {
        int[] members = sites.members(site);
        List<RankBlocks> blocks = new ArrayList<>(members.length);
        for (int member : members) {
            RankBlocks.Builder received = forMember.get(member);
            blocks.add(received == null ? RankBlocks.empty() : received.build());
        }
        return blocks;
    }
}
