package dev.canopy.dashboard.multicast;

import dev.canopy.collectives.internal.multicast.MulticastPath;
import dev.canopy.multicast.internal.reliable.MulticastStats;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The multicast view: per member of the communicator whose bcast runs over multicast, the counters of its
 * {@link MulticastPath} (bcasts by multicast, bcasts that fell back to the trees) and of the reliable
 * multicast under it (retransmissions, ACK/credit feedback, duplicates, credit stalls), and how full its send
 * windows were when read: the packets its root and co-root windows hold until acknowledged, against one
 * window's size. Immutable; a source publishes a fresh value periodically while bcasts run
 * ({@link MulticastSource#publishEvery}) and after each round.
 *
 * @param communicator the communicator's name, e.g. {@code WORLD}
 * @param path         the multicast layer's description ({@link MulticastPath#description()})
 * @param fallback     why some levels fall back to the point-to-point trees, if any do
 * @param members      one row per member, any order
 */
public record MulticastFigures(String communicator, String path, Optional<String> fallback, List<Member> members) {

    /** Nothing runs over multicast (yet). */
    public static final MulticastFigures NONE = new MulticastFigures("", "", Optional.empty(), List.of());

    public MulticastFigures {
        Objects.requireNonNull(communicator, "communicator");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(fallback, "fallback");
        members = members.stream().sorted(Comparator.comparingInt(Member::rank)).toList();
    }

    /** One member's counters: {@code stats} as its {@link MulticastPath#stats()} reported them. */
    public record Member(int rank, String site, MulticastPath.Stats stats) {

        public Member {
            Objects.requireNonNull(site, "site");
            Objects.requireNonNull(stats, "stats");
        }
    }

    public boolean active() {
        return !members.isEmpty();
    }

    public Optional<Member> member(int rank) {
        return members.stream().filter(m -> m.rank() == rank).findFirst();
    }

    /** The JSON of {@code /api/multicast}: every member, or only {@code rank} when given. */
    public JsonObject toJson(Optional<Member> only) {
        List<Member> shown = only.map(List::of).orElse(members);
        JsonArray rows = new JsonArray();
        long multicastBcasts = 0;
        long treeBcasts = 0;
        MulticastStats total = new MulticastStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        for (Member member : shown) {
            rows.add(counters(member.stats().multicastBcasts(), member.stats().treeBcasts(), member.stats().substrate())
                    .put("rank", member.rank()).put("site", member.site())
                    .put("window_slots_in_use", member.stats().windowSlotsInUse())
                    .put("window_size", member.stats().windowSize())
                    .put("window_occupancy", occupancy(member)));
            multicastBcasts += member.stats().multicastBcasts();
            treeBcasts += member.stats().treeBcasts();
            total = total.plus(member.stats().substrate());
        }
        return new JsonObject().put("active", active()).put("communicator", communicator).put("path", path)
                .put("fallback", fallback.orElse(null))
                .put("window_occupancy", shown.stream().mapToDouble(MulticastFigures::occupancy).max().orElse(0))
                .put("members", rows)
                .put("totals", counters(multicastBcasts, treeBcasts, total)
                        .put("window_slots_in_use", shown.stream().mapToLong(m -> m.stats().windowSlotsInUse()).sum()));
    }

    /** Packets held in the member's windows per packet one window holds (above 1 when its co-root windows hold some too). */
    private static double occupancy(Member member) {
        return (double) member.stats().windowSlotsInUse() / member.stats().windowSize();
    }

    private static JsonObject counters(long multicastBcasts, long treeBcasts, MulticastStats stats) {
        return new JsonObject().put("multicast_bcasts", multicastBcasts).put("tree_bcasts", treeBcasts)
                .put("packets_multicast", stats.packetsMulticast()).put("packets_from_fabric", stats.packetsFromFabric())
                .put("forwards", stats.forwards()).put("retransmissions", stats.retransmissions())
                .put("forced_retransmissions", stats.forcedRetransmissions())
                .put("acks_sent", stats.feedbackSent()).put("acks_received", stats.feedbackReceived())
                .put("duplicates_dropped", stats.duplicatesDropped()).put("malformed_dropped", stats.malformedDropped())
                .put("credit_stalls", stats.creditStalls());
    }
}
