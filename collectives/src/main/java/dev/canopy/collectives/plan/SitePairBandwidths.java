package dev.canopy.collectives.plan;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.forecast.LinkForecast;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * The bandwidth prober's forecasts frozen per site pair, in Mbit/s: what {@link ProbedBandwidths} completes the
 * level file with, and what a live plan's epoch carries beside its latency snapshot, so every member that
 * rebuilds the plan's sized trees prices its links exactly as the leader did. Immutable; undirected pairs of two
 * distinct sites, each a finite value above 0.
 */
public final class SitePairBandwidths {

    /** No forecast: the level file's bandwidths alone (unlimited where it gives none). */
    public static final SitePairBandwidths NONE = new SitePairBandwidths(new TreeMap<>());

    /** One site pair's forecast, {@code a} before {@code b}. */
    public record Pair(String a, String b, double mbps) {

        public Pair {
            Objects.requireNonNull(a, "a");
            Objects.requireNonNull(b, "b");
            if (a.compareTo(b) >= 0) {
                throw new IllegalArgumentException("a site pair names two distinct sites in order, got '" + a
                        + "' and '" + b + "'");
            }
            if (!(mbps > 0) || Double.isInfinite(mbps)) {
                throw new IllegalArgumentException("the bandwidth of " + a + "~" + b + " must be above 0 and finite, got "
                        + mbps + " Mbit/s");
            }
        }

        /** The pair of two distinct sites in either order. */
        public static Pair of(String one, String other, double mbps) {
            return one.compareTo(other) < 0 ? new Pair(one, other, mbps) : new Pair(other, one, mbps);
        }
    }

    /** One site pair whose bandwidth moved between two snapshots, for the re-plan log line. */
    public record Move(String a, String b, double beforeMbps, double afterMbps) {

        double relativeChange() {
            return Math.abs(afterMbps - beforeMbps) / Math.min(beforeMbps, afterMbps);
        }

        @Override
        public String toString() {
            return String.format("%s~%s %.1f->%.1f Mbit/s", a, b, beforeMbps, afterMbps);
        }
    }

    /** Mbit/s by pair key "a\0b", a before b. */
    private final TreeMap<String, Double> mbpsByPair;

    private SitePairBandwidths(TreeMap<String, Double> mbpsByPair) {
        this.mbpsByPair = mbpsByPair;
    }

    /** @throws IllegalArgumentException if a pair appears twice */
    public static SitePairBandwidths of(List<Pair> pairs) {
        TreeMap<String, Double> mbps = new TreeMap<>();
        for (Pair pair : pairs) {
            if (mbps.put(key(pair.a(), pair.b()), pair.mbps()) != null) {
                throw new IllegalArgumentException("site pair " + pair.a() + "~" + pair.b() + " has two bandwidths");
            }
        }
        return new SitePairBandwidths(mbps);
    }

    /**
     * The fresh bandwidth forecasts between members of two distinct sites; round-trip times, stale forecasts,
     * links to non-members and values that are not finite and above 0 are ignored. Several forecasts of one site
     * pair (either direction, or several member pairs) give their highest: a probe times one transfer, which
     * reached that rate over the pair's link.
     *
     * @param coordinates every member's coordinates by node id
     * @param forecasts the forecasts a node holds (its own and the published site pairs)
     */
    public static SitePairBandwidths of(Map<String, Coordinates> coordinates, List<LinkForecast> forecasts) {
        TreeMap<String, Double> mbpsByPair = new TreeMap<>();
        for (LinkForecast forecast : forecasts) {
            Coordinates a = coordinates.get(forecast.link().a().value());
            Coordinates b = coordinates.get(forecast.link().b().value());
            double mbps = forecast.forecast().value();
            boolean usable = forecast.metric() == Metric.BANDWIDTH && forecast.isFresh() && a != null && b != null
                    && !a.site().equals(b.site()) && mbps > 0 && Double.isFinite(mbps);
            if (usable) {
                mbpsByPair.merge(key(a.site(), b.site()), mbps, Math::max);
            }
        }
        return new SitePairBandwidths(mbpsByPair);
    }

    /** The forecast between two sites (either order), if any. */
    public OptionalDouble mbps(String site, String otherSite) {
        Double mbps = mbpsByPair.get(key(site, otherSite));
        return mbps == null ? OptionalDouble.empty() : OptionalDouble.of(mbps);
    }

    /** Every pair, in key order. */
    public List<Pair> pairs() {
        List<Pair> pairs = new ArrayList<>(mbpsByPair.size());
        mbpsByPair.forEach((key, mbps) -> {
            String[] sites = key.split("\u0000", 2);
            pairs.add(new Pair(sites[0], sites[1], mbps));
        });
        return pairs;
    }

    public boolean isEmpty() {
        return mbpsByPair.isEmpty();
    }

    /**
     * The pairs measured in both snapshots whose bandwidth differs by more than {@code fraction}, and those measured
     * in only one (against unlimited), largest change first.
     */
    public List<Move> movesSince(SitePairBandwidths before, double fraction) {
        TreeMap<String, Move> moves = new TreeMap<>();
        for (Pair pair : pairs()) {
            double beforeMbps = before.mbps(pair.a(), pair.b()).orElse(Double.POSITIVE_INFINITY);
            moves.put(key(pair.a(), pair.b()), new Move(pair.a(), pair.b(), beforeMbps, pair.mbps()));
        }
        for (Pair pair : before.pairs()) {
            moves.putIfAbsent(key(pair.a(), pair.b()), new Move(pair.a(), pair.b(), pair.mbps(), Double.POSITIVE_INFINITY));
        }
        return moves.values().stream()
                .filter(move -> move.beforeMbps() != move.afterMbps() && !(move.relativeChange() <= fraction))
                .sorted(Comparator.comparingDouble(Move::relativeChange).reversed())
                .toList();
    }

    private static String key(String one, String other) {
        return one.compareTo(other) < 0 ? one + "\u0000" + other : other + "\u0000" + one;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SitePairBandwidths that && mbpsByPair.equals(that.mbpsByPair);
    }

    @Override
    public int hashCode() {
        return mbpsByPair.hashCode();
    }

    /** The forecasts, e.g. {@code probed[ams~ber=180.0]}; the same text in every JVM. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("probed[");
        mbpsByPair.forEach((pair, mbps) -> text.append(text.length() > 7 ? ", " : "")
                .append(pair.replace('\u0000', '~')).append('=').append(mbps));
        return text.append(']').toString();
    }
}
