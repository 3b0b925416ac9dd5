package dev.canopy.collectives.engine;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * All-to-all across sites, MagPIe style, so that only coordinators cross the WAN and each ordered
 * pair of sites exchanges one message:
 * <ol>
 *   <li>step {@code first}: members of one site exchange their blocks for each other directly;</li>
 *   <li>step {@code first + 1}: every member sends its blocks for other sites to its site's
 *       coordinator ({@link Sites#coordinator}), as {@link RankBlocks} keyed by destination;</li>
 *   <li>step {@code first + 2}: every coordinator sends every other coordinator the blocks of its
 *       site's members for that site, as {@link RankBlocks} keyed by source whose blocks are
 *       {@link RankBlocks} keyed by destination;</li>
 *   <li>step {@code first + 3}: every coordinator sends each member of its site the blocks from other
 *       sites for it, as {@link RankBlocks} keyed by source.</li>
 * </ol>
 * A member receives from one source in step order (FIFO per source and tag keeps them apart).
 * Building and splitting the aggregates ({@link SiteAggregates}) is linear in the blocks and bytes
 * they carry: a coordinator copies each byte once into the message that carries it on.
 */
public final class SiteExchange {

    private final Exchange exchange;
    private final Sites sites;
    private final int first;

    public SiteExchange(Exchange exchange, Sites sites, int first) {
        this.exchange = exchange;
        this.sites = sites;
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
            fromOtherSites = afterDirect(direct, coordinator, first + 3).map(RankBlocks::sliced);
        }
        return Future.all(Future.all(sends), Future.all(List.copyOf(direct.values())), fromOtherSites).map(all -> {
            RankBlocks.Builder received = RankBlocks.builder().putAll(fromOtherSites.result()).put(me, blocks.get(me));
            direct.forEach((source, block) -> received.put(source, block.result()));
            return received.build().inRankOrder(size);
        });
    }

    /** Coordinator's part: collects its members' off-site blocks, exchanges with the other coordinators, delivers. */
    private Future<RankBlocks> coordinate(RankBlocks mine, Map<Integer, Future<Buffer>> direct, List<Future<Void>> sends) {
        int me = exchange.rank();
        int mySite = sites.siteOf(me);
        List<Future<Buffer>> fromMembers = new ArrayList<>();
        for (int member : sites.members(mySite)) {
            if (member != me) {
                fromMembers.add(afterDirect(direct, member, first + 1));
            }
        }
        Future<Void> aggregated = Future.all(fromMembers).compose(all -> {
            SortedMap<Integer, RankBlocks> bySource = new TreeMap<>();
            bySource.put(me, mine);
            int[] members = sites.members(mySite);
            for (int i = 0, received = 0; i < members.length; i++) {
                if (members[i] != me) {
                    bySource.put(members[i], RankBlocks.sliced(fromMembers.get(received++).result()));
                }
            }
            List<Future<Void>> toCoordinators = new ArrayList<>();
            for (int site = 0; site < sites.count(); site++) {
                if (site != mySite) {
                    toCoordinators.add(exchange.send(sites.coordinator(site), first + 2,
                            SiteAggregates.forSite(bySource, sites.members(site))));
                }
            }
            return Future.all(toCoordinators).mapEmpty();
        });
        sends.add(aggregated);
        List<Future<Buffer>> fromCoordinators = new ArrayList<>();
        for (int site = 0; site < sites.count(); site++) {
            if (site != mySite) {
                fromCoordinators.add(exchange.receive(sites.coordinator(site), first + 2));
            }
        }
        return Future.all(fromCoordinators).compose(all -> {
            int[] members = sites.members(mySite);
            List<RankBlocks> forMember = SiteAggregates.perMember(
                    fromCoordinators.stream().map(Future::result).toList(), members);
            List<Future<Void>> deliveries = new ArrayList<>();
            RankBlocks own = RankBlocks.empty();
            for (int i = 0; i < members.length; i++) {
                if (members[i] == me) {
                    // copies: slices would keep every other site's whole message alive
                    own = forMember.get(i).copied();
                } else {
                    deliveries.add(exchange.send(members[i], first + 3, forMember.get(i).encode()));
                }
            }
            return Future.all(deliveries).map(own);
        });
    }

    /**
     * The message of {@code step} from a member of this site, received once that member's direct
     * block has arrived: both come from the same source on the same tag, in the order sent.
     */
    private Future<Buffer> afterDirect(Map<Integer, Future<Buffer>> direct, int source, int step) {
        return direct.get(source).compose(block -> exchange.receive(source, step));
    }
}
