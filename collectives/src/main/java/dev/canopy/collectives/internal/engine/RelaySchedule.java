package dev.canopy.collectives.internal.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One site coordinator's part in relaying the aggregates along {@link SiteRoutes}: hop k of every
 * route travels in round k, and in each round a coordinator sends at most one message to each other
 * coordinator, carrying every aggregate whose route takes that link in that round. Derived from the
 * routes alone, so every coordinator knows which messages to expect without being told. Immutable.
 */
final class RelaySchedule {

    /**
     * A message this coordinator sends in {@code round} to the coordinator of {@code toSite}: it
     * carries aggregates that arrived in the previous round from the coordinators of {@code waitsFor}
     * (none in round 1, which carries this site's own aggregates).
     */
    record Send(int round, int toSite, SortedSet<Integer> waitsFor) {
    }

    private final int rounds;
    private final List<SortedSet<Integer>> sendersByRound;
    private final List<SortedMap<Integer, SortedSet<Integer>>> sendsByRound;

    private RelaySchedule(int rounds, List<SortedSet<Integer>> sendersByRound,
            List<SortedMap<Integer, SortedSet<Integer>>> sendsByRound) {
        this.rounds = rounds;
        this.sendersByRound = sendersByRound;
        this.sendsByRound = sendsByRound;
    }

    static RelaySchedule of(SiteRoutes routes, int site) {
        int rounds = routes.rounds();
        List<SortedSet<Integer>> senders = new ArrayList<>();
        List<SortedMap<Integer, SortedSet<Integer>>> sends = new ArrayList<>();
        for (int round = 0; round <= rounds; round++) {
            senders.add(new TreeSet<>());
            sends.add(new TreeMap<>());
        }
        for (int from = 0; from < routes.siteCount(); from++) {
            for (int to = 0; to < routes.siteCount(); to++) {
                if (routes.carries(from, to)) {
                    int[] path = routes.path(from, to);
                    for (int hop = 1; hop < path.length; hop++) {
                        if (path[hop] == site) {
                            senders.get(hop).add(path[hop - 1]);
                        }
                        if (path[hop - 1] == site) {
                            SortedSet<Integer> waitsFor = sends.get(hop).computeIfAbsent(path[hop], next -> new TreeSet<>());
                            if (hop > 1) {
                                waitsFor.add(path[hop - 2]);
                            }
                        }
                    }
                }
            }
        }
        return new RelaySchedule(rounds, senders.stream().map(Collections::unmodifiableSortedSet).toList(),
                sends.stream().map(Collections::unmodifiableSortedMap).toList());
    }

    /** Rounds 1 to {@code rounds()}; in some of them this coordinator may have nothing to do. */
    int rounds() {
        return rounds;
    }

    /** The sites whose coordinators send this one a message in {@code round}. */
    SortedSet<Integer> sendersIn(int round) {
        return sendersByRound.get(round);
    }

    /** The messages this coordinator sends in {@code round}, by destination site. */
    List<Send> sendsIn(int round) {
        List<Send> sends = new ArrayList<>();
        sendsByRound.get(round).forEach((toSite, waitsFor) ->
                sends.add(new Send(round, toSite, Collections.unmodifiableSortedSet(waitsFor))));
        return sends;
    }
}
