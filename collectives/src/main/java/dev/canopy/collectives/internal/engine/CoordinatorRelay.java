package dev.canopy.collectives.internal.engine;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * A site coordinator's part in the middle step of a {@link SiteExchange}: passes the aggregates
 * between the coordinators along {@link SiteRoutes}, round by round as its {@link RelaySchedule}
 * says, and collects the blocks for the members of its own site ({@link RelayedBlocks}).
 *
 * <p>There is no barrier between rounds: a message goes out as soon as the messages of the previous
 * round whose aggregates it carries on have arrived. Round k travels on step {@code firstStep + k - 1}.
 * Messages between two coordinators stay in round order: sends to one coordinator are issued in
 * round order and receives from one are posted one after the other, so FIFO per source and tag
 * keeps them, and their chunks, apart.
 */
final class CoordinatorRelay {

    private final Exchange exchange;
    private final Sites sites;
    private final SiteRoutes routes;
    private final int firstStep;

    /** @param firstStep the step of round 1 */
    CoordinatorRelay(Exchange exchange, Sites sites, SiteRoutes routes, int firstStep) {
        this.exchange = exchange;
        this.sites = sites;
        this.routes = routes;
        this.firstStep = firstStep;
    }

    /**
     * @param own this site's blocks for other sites, by source rank, then by destination rank
     * @param sends collects this coordinator's sends, which the caller awaits
     * @return the blocks from other sites for each member of this site, in member order, by source
     */
    Future<List<RankBlocks>> run(Future<SortedMap<Integer, RankBlocks>> own, List<Future<Void>> sends) {
        int site = sites.siteOf(exchange.rank());
        RelaySchedule schedule = RelaySchedule.of(routes, site);
        RelayedBlocks blocks = new RelayedBlocks(sites, routes, site);
        Future<Void> ownSorted = own.map(bySource -> {
            blocks.sortOwn(bySource);
            return null;
        });
        List<Future<Void>> sorted = new ArrayList<>(List.of(ownSorted));
        Map<Integer, Future<Void>> lastHeardFrom = new HashMap<>();
        Map<Integer, Future<Void>> lastIssuedTo = new HashMap<>();
        Map<Integer, Future<Void>> heardInRound = Map.of();
        for (int round = 1; round <= schedule.rounds(); round++) {
            Map<Integer, Future<Void>> heardBefore = heardInRound;
            heardInRound = new HashMap<>();
            for (int from : schedule.sendersIn(round)) {
                Future<Void> heard = hear(blocks, round, from, lastHeardFrom.getOrDefault(from, Future.succeededFuture()));
                lastHeardFrom.put(from, heard);
                heardInRound.put(from, heard);
                sorted.add(heard);
            }
            for (RelaySchedule.Send send : schedule.sendsIn(round)) {
                List<Future<Void>> ready = new ArrayList<>();
                ready.add(lastIssuedTo.getOrDefault(send.toSite(), Future.succeededFuture()));
                if (round == 1) {
                    ready.add(ownSorted);
                } else {
                    send.waitsFor().forEach(from -> ready.add(heardBefore.get(from)));
                }
                Future<Future<Void>> issued = Future.all(ready).map(all -> exchange.send(
                        sites.coordinator(send.toSite()), step(send.round()), blocks.onward(send.round(), send.toSite())));
                sends.add(issued.compose(sent -> sent));
                lastIssuedTo.put(send.toSite(), issued.mapEmpty());
            }
        }
        return Future.all(sorted).map(all -> blocks.perMember());
    }

    /** Receives the message of {@code round} from the coordinator of {@code from} once {@code previous} (its last one) arrived. */
    private Future<Void> hear(RelayedBlocks blocks, int round, int from, Future<Void> previous) {
        return previous.compose(done -> exchange.<Void>receive(sites.coordinator(from), step(round), message -> {
            blocks.sortReceived(round, from, message);
            return null;
        }));
    }

    private int step(int round) {
        return firstStep + round - 1;
    }
}
