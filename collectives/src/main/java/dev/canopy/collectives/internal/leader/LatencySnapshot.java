package dev.canopy.collectives.internal.leader;

import dev.canopy.topology.internal.graph.LatencySource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one-way latencies a plan was computed from, frozen: every ordered pair of members, row-major.
 * A published plan carries its snapshot, so every member that rebuilds the plan's trees from it gets
 * the same trees as the leader. Immutable; {@link LatencySource#UNMEASURED} marks a pair without a
 * forecast or configured value.
 */
public final class LatencySnapshot implements LatencySource {

    /** One link whose latency moved between two snapshots, for the re-plan log line. */
    public record Move(String from, String to, double beforeMs, double afterMs) {

        double relativeChange() {
            return Math.abs(afterMs - beforeMs) / Math.max(Math.min(beforeMs, afterMs), 1e-9);
        }

        @Override
        public String toString() {
            return String.format("%s~%s %.3f->%.3f ms", from, to, beforeMs, afterMs);
        }
    }

    private final List<String> members;
    private final Map<String, Integer> indexOf = new HashMap<>();
    private final double[] oneWayMs;

    /** @param oneWayMs {@code members.size()^2} values, row {@code from}, column {@code to}; the diagonal is ignored */
    public LatencySnapshot(List<String> members, double[] oneWayMs) {
        this.members = List.copyOf(members);
        int n = this.members.size();
        if (oneWayMs.length != (long) n * n) {
            throw new IllegalArgumentException("a latency snapshot of " + n + " members needs " + (long) n * n
                    + " values, got " + oneWayMs.length);
        }
        for (int i = 0; i < n; i++) {
            if (indexOf.put(this.members.get(i), i) != null) {
                throw new IllegalArgumentException("member '" + this.members.get(i) + "' appears twice in a latency snapshot");
            }
        }
        for (double value : oneWayMs) {
            if (!(value >= 0)) {
                throw new IllegalArgumentException("latency snapshot value " + value + " is not a latency >= 0 ms");
            }
        }
        this.oneWayMs = oneWayMs.clone();
    }

    /** Reads every ordered pair of {@code members} from {@code source} once. */
    public static LatencySnapshot of(List<String> members, LatencySource source) {
        int n = members.size();
        double[] values = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                values[i * n + j] = i == j ? 0 : source.oneWayMs(members.get(i), members.get(j));
            }
        }
        return new LatencySnapshot(members, values);
    }

    public List<String> members() {
        return members;
    }

    /** The values, row-major (a copy). */
    public double[] values() {
        return oneWayMs.clone();
    }

    @Override
    public double oneWayMs(String from, String to) {
        return oneWayMs[index(from) * members.size() + index(to)];
    }

    /**
     * The links (unordered pairs, read {@code from -> to} with {@code from} first in member order)
     * whose latency differs from {@code before} by more than {@code fraction}, largest change first.
     */
    public List<Move> movesSince(LatencySnapshot before, double fraction) {
        if (!members.equals(before.members)) {
            throw new IllegalArgumentException("cannot compare latency snapshots of different members: "
                    + before.members + " and " + members);
        }
        List<Move> moves = new ArrayList<>();
        int n = members.size();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                Move move = new Move(members.get(i), members.get(j), before.oneWayMs[i * n + j], oneWayMs[i * n + j]);
                if (move.beforeMs() != move.afterMs() && move.relativeChange() > fraction) {
                    moves.add(move);
                }
            }
        }
        moves.sort(Comparator.comparingDouble(Move::relativeChange).reversed());
        return List.copyOf(moves);
    }

    private int index(String member) {
        Integer index = indexOf.get(member);
        if (index == null) {
            throw new IllegalArgumentException("'" + member + "' is not a member of this latency snapshot " + members);
        }
        return index;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LatencySnapshot that && members.equals(that.members)
                && Arrays.equals(oneWayMs, that.oneWayMs);
    }

    @Override
    public int hashCode() {
        return 31 * members.hashCode() + Arrays.hashCode(oneWayMs);
    }

    @Override
    public String toString() {
        return "LatencySnapshot[" + members.size() + " members]";
    }
}
