package dev.canopy.collectives.engine;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
        RankBlocks offSite = RankBlocks.empty();
        for (int destination = 0; destination < size; destination++) {
            if (!sites.sameSite(me, destination)) {
                offSite = offSite.with(destination, blocks.get(destination));
            }
        }
        Future<RankBlocks> fromOtherSites;
        if (me == coordinator) {
            fromOtherSites = coordinate(offSite, direct, sends);
        } else {
            sends.add(exchange.send(coordinator, first + 1, offSite.encode()));
            fromOtherSites = afterDirect(direct, coordinator, first + 3).map(RankBlocks::decode);
        }
        return Future.all(Future.all(sends), Future.all(List.copyOf(direct.values())), fromOtherSites).map(all -> {
            RankBlocks received = fromOtherSites.result().with(me, blocks.get(me));
            for (Map.Entry<Integer, Future<Buffer>> block : direct.entrySet()) {
                received = received.with(block.getKey(), block.getValue().result());
            }
            return received.inRankOrder(size);
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
            RankBlocks bySource = RankBlocks.of(me, mine.encode());
            int[] members = sites.members(mySite);
            for (int i = 0, received = 0; i < members.length; i++) {
                if (members[i] != me) {
                    bySource = bySource.with(members[i], fromMembers.get(received++).result());
                }
            }
            List<Future<Void>> toCoordinators = new ArrayList<>();
            for (int site = 0; site < sites.count(); site++) {
                if (site != mySite) {
                    toCoordinators.add(exchange.send(sites.coordinator(site), first + 2, forSite(bySource, site).encode()));
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
            // destination rank -> (source rank -> block), for the members of this site
            List<RankBlocks> forMember = new ArrayList<>();
            int[] members = sites.members(mySite);
            for (int i = 0; i < members.length; i++) {
                forMember.add(RankBlocks.empty());
            }
            for (Future<Buffer> siteMessage : fromCoordinators) {
                RankBlocks bySource = RankBlocks.decode(siteMessage.result());
                for (int source : bySource.ranks()) {
                    RankBlocks byDestination = RankBlocks.decode(bySource.block(source));
                    for (int i = 0; i < members.length; i++) {
                        forMember.set(i, forMember.get(i).with(source, byDestination.block(members[i])));
                    }
                }
            }
            List<Future<Void>> deliveries = new ArrayList<>();
            RankBlocks own = RankBlocks.empty();
            for (int i = 0; i < members.length; i++) {
                if (members[i] == me) {
                    own = forMember.get(i);
                } else {
                    deliveries.add(exchange.send(members[i], first + 3, forMember.get(i).encode()));
                }
            }
            return Future.all(deliveries).map(own);
        });
    }

    /** Of the blocks keyed by source (each keyed by destination), the ones destined for {@code site}. */
    private RankBlocks forSite(RankBlocks bySource, int site) {
        RankBlocks selected = RankBlocks.empty();
        for (int source : bySource.ranks()) {
            selected = selected.with(source, RankBlocks.decode(bySource.block(source)).select(sites.members(site)).encode());
        }
        return selected;
    }

    /**
     * The message of {@code step} from a member of this site, received once that member's direct
     * block has arrived: both come from the same source on the same tag, in the order sent.
     */
    private Future<Buffer> afterDirect(Map<Integer, Future<Buffer>> direct, int source, int step) {
        return direct.get(source).compose(block -> exchange.receive(source, step));
    }
}
