package dev.canopy.collectives.internal.engine;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * All-to-all across sites, MagPIe style, so that only coordinators cross the WAN, each carrying
 * its site's blocks for another site as one aggregate:
 * <ol>
 *   <li>step {@code first}: members of one site exchange their blocks for each other directly;</li>
 *   <li>step {@code first + 1}: every member sends its blocks for other sites to its site's
 *       coordinator ({@link Sites#coordinator}), as {@link RankBlocks} keyed by destination;</li>
 *   <li>steps {@code first + 3} on: the coordinators pass the aggregates along {@link SiteRoutes}
 *       ({@link CoordinatorRelay}), hop k in round k on step {@code first + 2 + k}, each message as
 *       {@link RankBlocks} keyed by source whose blocks are {@link RankBlocks} keyed by destination.
 *       With {@link SiteRoutes#direct} that is one round of one message per ordered pair of sites;
 *       with {@link SiteRoutes#fastest} an aggregate may travel through other coordinators, which
 *       combine what they send to one coordinator in one round into one message;</li>
 *   <li>step {@code first + 2}: every coordinator sends each member of its site the blocks from other
 *       sites for it, as {@link RankBlocks} keyed by source.</li>
 * </ol>
 * A member receives from one source in step order (FIFO per source and tag keeps them apart).
 * Building and splitting the aggregates ({@link SiteAggregates}, {@link RelayedBlocks}) is linear in
 * the blocks and bytes they carry: a coordinator copies each byte once into the message that carries
 * it on. Every member must pass the same routes. What a member sends its coordinator and what a
 * coordinator delivers must hold a block for every rank of the other sites and no other; what
 * coordinators relay is checked by {@link RelayedBlocks} ({@link
 * dev.canopy.collectives.data.MalformedMessageException} otherwise).
 */
public final class SiteExchange {

    private final Exchange exchange;
    private final Sites sites;
    private final SiteRoutes routes;
    private final int first;

    public SiteExchange(Exchange exchange, Sites sites, SiteRoutes routes, int first) {
        if (routes.siteCount() != sites.count()) {
            throw new IllegalArgumentException("routes between " + routes.siteCount() + " sites cannot serve "
                    + sites.count() + " sites");
        }
        this.exchange = exchange;
        this.sites = sites;
        this.routes = routes;
        this.first = first;
    }

    /** {@code blocks} holds one block per destination rank; completes with one block per source rank. */
    public Future<List<Buffer>> run(List<Buffer> blocks) {
        int me = exchange.rank();
        int size = exchange.size();
        if (blocks.size() != size) {
            throw new IllegalArgumentException("all-to-all needs one block per rank (" + size + "), got " + blocks.size());
        }
        int mySite = sites.siteOf(me);
        int coordinator = sites.coordinator(mySite);
        List<Future<Void>> sends = new ArrayList<>();
        Map<Integer, Future<Buffer>> direct = new TreeMap<>();
        for (int peer : sites.members(mySite)) {
            if (peer != me) {
                sends.add(exchange.send(peer, first, blocks.get(peer)));
                direct.put(peer, exchange.receive(peer, first));
            }
        }
        RankBlocks offSite = SiteAggregates.offSite(blocks, sites, me);
        Future<RankBlocks> fromOtherSites;
        if (me == coordinator) {
            fromOtherSites = coordinate(offSite, direct, sends);
        } else {
            sends.add(exchange.send(coordinator, first + 1, offSite.encode()));
            // the message holds this member's blocks only: slices of it keep nothing else alive
            // Copied: these blocks are handed to the caller, who may grow them (slices cannot grow).
            fromOtherSites = afterDirect(direct, coordinator, first + 2, body -> RankBlocks.decode(body)
                    .requireRanks(ranksOffSite(mySite), "every site but this member's"));
        }
        return Future.all(Future.all(sends), Future.all(List.copyOf(direct.values())), fromOtherSites).map(all -> {
            RankBlocks.Builder received = RankBlocks.builder().putAll(fromOtherSites.result()).put(me, blocks.get(me));
            direct.forEach((source, block) -> received.put(source, block.result()));
            return received.build().inRankOrder(size);
        });
    }

    /** Coordinator's part: collects its members' off-site blocks, relays them with the other coordinators, delivers. */
    private Future<RankBlocks> coordinate(RankBlocks mine, Map<Integer, Future<Buffer>> direct, List<Future<Void>> sends) {
        int me = exchange.rank();
        int[] members = sites.members(sites.siteOf(me));
        int[] offSite = ranksOffSite(sites.siteOf(me));
        List<Future<RankBlocks>> fromMembers = new ArrayList<>();
        for (int member : members) {
            if (member != me) {
                fromMembers.add(afterDirect(direct, member, first + 1,
                        body -> RankBlocks.sliced(body).requireRanks(offSite, "every site but the member's")));
            }
        }
        Future<SortedMap<Integer, RankBlocks>> aggregates = Future.all(fromMembers).map(all -> {
            SortedMap<Integer, RankBlocks> bySource = new TreeMap<>();
            bySource.put(me, mine);
            for (int i = 0, received = 0; i < members.length; i++) {
                if (members[i] != me) {
                    bySource.put(members[i], fromMembers.get(received++).result());
                }
            }
            return bySource;
        });
        return new CoordinatorRelay(exchange, sites, routes, first + 3).run(aggregates, sends).compose(forMember -> {
            List<Future<Void>> deliveries = new ArrayList<>();
            RankBlocks own = RankBlocks.empty();
            for (int i = 0; i < members.length; i++) {
                if (members[i] == me) {
                    // copies: slices would keep every other site's whole message alive
                    own = forMember.get(i).copied();
                } else {
                    deliveries.add(exchange.send(members[i], first + 2, forMember.get(i).encode()));
                }
            }
            return Future.all(deliveries).map(own);
        });
    }

    /**
     * The message of {@code step} from a member of this site, received once that member's direct
     * block has arrived: both come from the same source on the same tag, in the order sent.
     */
    private <T> Future<T> afterDirect(Map<Integer, Future<Buffer>> direct, int source, int step,
            Function<Buffer, T> decoder) {
        return direct.get(source).compose(block -> exchange.receive(source, step, decoder));
    }

    /** The ranks of every site but {@code site}, ascending. */
    private int[] ranksOffSite(int site) {
        return IntStream.range(0, exchange.size()).filter(rank -> sites.siteOf(rank) != site).toArray();
    }
}
