package dev.canopy.dashboard.record;

import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.core.node.Member;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.EnumSet;
import java.util.Set;

/**
 * Who was late in one collective, and why. Times are relative to the root's start (the moment the root's
 * program called the operation; every rank is in this JVM, so one clock serves all):
 * <ul>
 *   <li><b>process</b>: the rank itself called the operation more than the tolerance after the root;</li>
 *   <li><b>upstream</b>: it was on time but an ancestor in the plan's tree was a late process, so the data
 *       reached it late through no fault of the network (named in {@code waited_for});</li>
 *   <li><b>downstream</b>: it completed late after a late process below it in the tree had started (it waited
 *       for that descendant: an acknowledgement, a contribution), named in {@code waited_for};</li>
 *   <li><b>network</b>: it and its ancestors were on time, yet it completed more than the tolerance after the
 *       plan predicted (the broadcast arrival for downward operations, an up-and-down pass for the others). In a
 *       downward operation only the rank where the delay appeared is blamed; below it, ranks whose delay its
 *       delay explains are <b>upstream</b> of it.</li>
 * </ul>
 * The tolerance is {@value #MIN_TOLERANCE_MS} ms or a quarter of the predicted completion, whichever is more,
 * so a loaded machine's scheduling noise is not blamed on anyone.
 */
final class SkewReport {

    static final double MIN_TOLERANCE_MS = 20;
    private static final Set<Operation> DOWNWARD = EnumSet.of(Operation.BCAST, Operation.SCATTER, Operation.SCATTERV);

    private SkewReport() {
    }

    /**
     * @param arrivalNanos each rank's start ({@code Long.MIN_VALUE}: it never started)
     * @param completionNanos each rank's completion ({@code Long.MIN_VALUE}: not completed)
     */
    static JsonObject of(OperationStart start, long[] arrivalNanos, long[] completionNanos) {
        int size = start.members().size();
        long rootStart = arrivalNanos[start.root()];
        double predictedCompletion = 0;
        for (double ms : start.predictedArrivalMs()) {
            predictedCompletion = Math.max(predictedCompletion, ms);
        }
        double tolerance = Math.max(MIN_TOLERANCE_MS, predictedCompletion / 4);
        double[] arrival = new double[size];
        JsonArray ranks = new JsonArray();
        double completion = 0;
        for (int rank = 0; rank < size; rank++) {
            arrival[rank] = relativeMs(arrivalNanos[rank], rootStart);
            double completed = relativeMs(completionNanos[rank], rootStart);
            completion = Double.isNaN(completed) ? completion : Math.max(completion, completed);
            ranks.add(rankJson(start, rank).put("arrival_ms", json(arrival[rank])).put("completion_ms", json(completed))
                    .put("predicted_ms", start.predictedArrivalMs()[rank]));
        }
        boolean downward = DOWNWARD.contains(start.operation());
        double[] excess = new double[size];
        for (int rank = 0; rank < size; rank++) {
            double expected = downward ? start.predictedArrivalMs()[rank] : 2 * predictedCompletion;
            excess[rank] = relativeMs(completionNanos[rank], rootStart) - expected;
        }
        // A downward operation's root completes once its sends have left: it has no arrival that could be late.
        JsonArray late = new JsonArray();
        for (int rank = 0; rank < size; rank++) {
            int lateAncestor = lateAncestor(start, arrival, rank, tolerance);
            if (arrival[rank] > tolerance) {
                late.add(rankJson(start, rank).put("late_ms", arrival[rank]).put("cause", "process"));
            } else if (lateAncestor >= 0) {
                late.add(rankJson(start, rank).put("late_ms", arrival[lateAncestor]).put("cause", "upstream")
                        .put("waited_for", lateAncestor));
            } else if (excess[rank] > tolerance && lateDescendant(start, arrival, completed(completionNanos, rootStart, rank),
                    rank, tolerance) >= 0) {
                late.add(rankJson(start, rank).put("late_ms", excess[rank]).put("cause", "downstream").put("waited_for",
                        lateDescendant(start, arrival, completed(completionNanos, rootStart, rank), rank, tolerance)));
            } else if (excess[rank] > tolerance && !(downward && rank == start.root())) {
                int origin = downward ? networkOrigin(start, excess, rank, tolerance) : rank;
                JsonObject entry = rankJson(start, rank).put("late_ms", excess[rank]);
                late.add(origin == rank ? entry.put("cause", "network")
                        : entry.put("cause", "upstream").put("waited_for", origin));
            }
        }
        return new JsonObject()
                .put("completion_ms", completion)
                .put("predicted_completion_ms", predictedCompletion)
                .put("tolerance_ms", tolerance)
                .put("ranks", ranks)
                .put("late", late);
    }

    /**
     * Where a downward operation's delay at {@code rank} came from: the highest ancestor whose own lateness
     * already explains {@code rank}'s within the tolerance (it passed the delay down), or {@code rank} itself
     * when its link added more than the tolerance.
     */
    private static int networkOrigin(OperationStart start, double[] excess, int rank, double tolerance) {
        int origin = rank;
        for (int at = start.parents()[rank]; at >= 0; at = start.parents()[at]) {
            if (excess[at] > tolerance && excess[origin] - excess[at] <= tolerance) {
                origin = at;
            } else {
                break;
            }
        }
        return origin;
    }

    /**
     * A descendant of {@code rank} that was a late process and started before {@code rank} completed (so
     * {@code rank} may have waited for it: a child's acknowledgement, a reduction's contribution), the latest such;
     * or -1.
     */
    private static int lateDescendant(OperationStart start, double[] arrival, double completed, int rank, double tolerance) {
        int found = -1;
        for (int other = 0; other < arrival.length; other++) {
            if (other != rank && arrival[other] > tolerance && arrival[other] <= completed && isAncestor(start, rank, other)
                    && (found < 0 || arrival[other] > arrival[found])) {
                found = other;
            }
        }
        return found;
    }

    private static boolean isAncestor(OperationStart start, int ancestor, int rank) {
        for (int at = start.parents()[rank]; at >= 0; at = start.parents()[at]) {
            if (at == ancestor) {
                return true;
            }
        }
        return false;
    }

    private static double completed(long[] completionNanos, long rootStart, int rank) {
        return relativeMs(completionNanos[rank], rootStart);
    }

    /** The nearest ancestor of {@code rank} in the tree that was a late process, or -1. */
    private static int lateAncestor(OperationStart start, double[] arrival, int rank, double tolerance) {
        for (int at = start.parents()[rank]; at >= 0; at = start.parents()[at]) {
            if (arrival[at] > tolerance) {
                return at;
            }
        }
        return -1;
    }

    private static JsonObject rankJson(OperationStart start, int rank) {
        Member member = start.members().get(rank);
        return new JsonObject().put("rank", rank).put("id", member.id().value()).put("site", member.coordinates().site());
    }

    private static double relativeMs(long nanos, long rootStart) {
        return nanos == Long.MIN_VALUE || rootStart == Long.MIN_VALUE ? Double.NaN : (nanos - rootStart) / 1e6;
    }

    private static Double json(double value) {
        return Double.isNaN(value) ? null : value;
    }
}
