package dev.canopy.collectives.internal.multicast;

import dev.canopy.multicast.internal.groups.GroupPolicy;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code auto}'s choice among the one-to-many policies ({@code static}, {@code dynamic}, {@code tree}), from
 * costs measured on this deployment by {@link PolicyCalibration}, never from constants: for each policy, the time of
 * one-to-{@code few} and one-to-{@code many} scatters at two piece sizes (each member's call until its future
 * completed, the largest over the members), so the fixed part holds that policy's group management (a dynamic
 * group's lease, announcement, joins and drop) and the per-byte part its data path.
 *
 * <p>At each of the two target counts a policy's cost is a line {@code fixed + perByte * bytes}, {@code bytes} what
 * the policy sends from the root ({@link CallShape#bytes}: a multicast sends the packed pieces once, the tree each
 * target its piece). Between and beyond the two target counts the cost is interpolated linearly in the targets, so a
 * cost per target (the tree's sends, a dynamic group's joins) is measured too, not assumed.
 *
 * <p>The lines are only two points per target count, and the real costs are not straight: a multicast that outgrows
 * the reliable sender's window costs several times its line, so a correction learned at one size must not be carried
 * to another. {@link AutoPolicy} therefore corrects the calibrated cost per <em>size class</em> ({@link #sizeClass}:
 * the nearer calibrated target count, and the bytes the policy sends within a factor of two) by the ratio the real
 * operations of that class took against it; a class never observed keeps the calibration. Every member holds the
 * same model (the calibration's samples are allgathered, the corrections folded from the same observations at points
 * the members agree on), so every member reaches the same choice for the same call.
 *
 * <p>The corrections follow noisy times, so a choice is sticky ({@link #choose}): the policy the previous model chose
 * for a call's shape (its {@code incumbents}) stays unless another is predicted cheaper by more than
 * {@link #SWITCH_MARGIN}; otherwise two policies within the noise of each other would take turns from one refresh to
 * the next.
 *
 * @param fewTargets  the smaller target count of the calibration
 * @param manyTargets the larger ({@code n - 1}; equal to {@code fewTargets} in a communicator of up to 6)
 * @param corrections per policy, per size class, the factor observed / calibrated
 * @param incumbents  per call shape, what the previous model chose (empty for the calibration)
 */
public record PolicyCostModel(int fewTargets, int manyTargets, Map<GroupPolicy, Lines> lines,
        Map<GroupPolicy, Map<Integer, Double>> corrections, Map<CallShape, GroupPolicy> incumbents) {

    /**
     * How much cheaper another policy must be predicted than the incumbent to replace it: above the refreshed
     * corrections' run-to-run noise on a shared machine, below the 1.1x a wrong choice may cost.
     */
    static final double SWITCH_MARGIN = 0.05;

    /** One policy's cost at one target count: {@code fixedMicros + perByteMicros * bytes}. */
    public record Line(double fixedMicros, double perByteMicros) {

        double micros(long bytes) {
            return fixedMicros + perByteMicros * bytes;
        }
    }

    /** One policy's lines at {@code fewTargets} and at {@code manyTargets}. */
    public record Lines(Line few, Line many) {
    }

    /** The policies {@code auto} chooses among for one call. */
    static final GroupPolicy[] PER_CALL = {GroupPolicy.STATIC, GroupPolicy.DYNAMIC, GroupPolicy.TREE};

    public PolicyCostModel {
        if (fewTargets > manyTargets) {
            throw new IllegalArgumentException("the policy cost model's target counts " + fewTargets + " and "
                    + manyTargets + " are the wrong way round");
        }
        lines = Map.copyOf(new EnumMap<>(lines));
        for (GroupPolicy policy : PER_CALL) {
            if (!lines.containsKey(policy)) {
                throw new IllegalArgumentException("the policy cost model has no measurement of " + policy.configName());
            }
        }
        Map<GroupPolicy, Map<Integer, Double>> copy = new EnumMap<>(GroupPolicy.class);
        corrections.forEach((policy, byClass) -> copy.put(policy, Map.copyOf(new TreeMap<>(byClass))));
        corrections = Map.copyOf(copy);
        incumbents = Map.copyOf(incumbents);
    }

    /** A model without incumbents. */
    public PolicyCostModel(int fewTargets, int manyTargets, Map<GroupPolicy, Lines> lines,
            Map<GroupPolicy, Map<Integer, Double>> corrections) {
        this(fewTargets, manyTargets, lines, corrections, Map.of());
    }

    /** The calibrated model, without corrections. */
    public PolicyCostModel(int fewTargets, int manyTargets, Map<GroupPolicy, Lines> lines) {
        this(fewTargets, manyTargets, lines, Map.of());
    }

    /** A model where everything is free (a communicator of one member: there is nothing to measure). */
    static PolicyCostModel free() {
        Map<GroupPolicy, Lines> lines = new EnumMap<>(GroupPolicy.class);
        for (GroupPolicy policy : PER_CALL) {
            lines.put(policy, new Lines(new Line(0, 0), new Line(0, 0)));
        }
        return new PolicyCostModel(0, 0, lines);
    }

    /** This calibration with {@code corrections} (per policy, per {@link #sizeClass}, observed / calibrated). */
    PolicyCostModel withCorrections(Map<GroupPolicy, Map<Integer, Double>> corrections) {
        return new PolicyCostModel(fewTargets, manyTargets, lines, corrections, incumbents);
    }

    /** This model choosing stickily against {@code incumbents} (per shape, the previous model's choice). */
    PolicyCostModel withIncumbents(Map<CallShape, GroupPolicy> incumbents) {
        return new PolicyCostModel(fewTargets, manyTargets, lines, corrections, incumbents);
    }

    /**
     * The class of {@code call} for {@code policy}'s corrections: {@code 64 x} (0 for the nearer calibrated target
     * count on a log scale being few, 1 for many) {@code +} the bit length of the bytes the policy sends. Nearer on a
     * log scale is {@code targets^2 <= few x many}, in integers: no logarithm, so members on different machines agree
     * exactly, and nothing costs more than a multiplication (every member asks for every {@code auto} call).
     */
    int sizeClass(GroupPolicy policy, CallShape call) {
        long targets = call.targets();
        int which = fewTargets == manyTargets
                || targets * targets <= (long) Math.max(1, fewTargets) * Math.max(1, manyTargets) ? 0 : 1;
        return 64 * which + (64 - Long.numberOfLeadingZeros(call.bytes(policy)));
    }

    /** The line through two measurements: {@code smallMicros} at {@code smallBytes}, {@code largeMicros} at {@code largeBytes}. */
    static Line through(long smallBytes, double smallMicros, long largeBytes, double largeMicros) {
        double perByte = Math.max(0, (largeMicros - smallMicros) / (largeBytes - smallBytes));
        return new Line(Math.max(0, smallMicros - perByte * smallBytes), perByte);
    }

    /** The predicted cost of {@code call} by {@code policy}: the calibration's, corrected for the call's size class. */
    public double micros(GroupPolicy policy, CallShape call) {
        return calibratedMicros(policy, call) * correction(policy, sizeClass(policy, call));
    }

    /**
     * The factor of {@code sizeClass}: its own, else that of the nearest corrected class at the same target count
     * (the smaller on a tie), else at the other count, else 1 (the calibration). So a calibration that was off
     * everywhere (taken while the JIT compiled, say) is corrected for sizes not run yet, while a class that has been
     * run keeps its own factor on either side of a step in the costs.
     */
    private double correction(GroupPolicy policy, int sizeClass) {
        Map<Integer, Double> factors = corrections.getOrDefault(policy, Map.of());
        Double own = factors.get(sizeClass);
        if (own != null || factors.isEmpty()) {
            return own == null ? 1 : own;
        }
        int count = sizeClass / 64;
        Integer nearest = nearest(factors, sizeClass, count);
        return factors.get(nearest != null ? nearest : nearest(factors, sizeClass, 1 - count));
    }

    /**
     * The class of {@code factors} at target count {@code count} whose bytes are nearest those of {@code sizeClass}
     * (the smaller on a tie), null if there is none. Allocates nothing: every member of a communicator asks this for
     * every {@code auto} call, and in one JVM they share an event loop.
     */
    private static Integer nearest(Map<Integer, Double> factors, int sizeClass, int count) {
        Integer nearest = null;
        for (int other : factors.keySet()) {
            if (other / 64 != count) {
                continue;
            }
            int distance = Math.abs(other % 64 - sizeClass % 64);
            int best = nearest == null ? Integer.MAX_VALUE : Math.abs(nearest % 64 - sizeClass % 64);
            if (distance < best || distance == best && other < nearest) {
                nearest = other;
            }
        }
        return nearest;
    }

    /** The cost of {@code call} by {@code policy} on the calibrated lines alone. */
    double calibratedMicros(GroupPolicy policy, CallShape call) {
        Lines both = lines.get(policy);
        if (both == null) {
            throw new IllegalArgumentException("no cost of " + policy.configName() + " was measured");
        }
        long bytes = call.bytes(policy);
        double few = both.few().micros(bytes);
        if (manyTargets == fewTargets) {
            return few;
        }
        double many = both.many().micros(bytes);
        return Math.max(0, few + (many - few) * (call.targets() - fewTargets) / (manyTargets - fewTargets));
    }

    /**
     * The cheapest of static, dynamic and tree for {@code call}, except that the incumbent for its shape stays while
     * the cheapest is predicted less than {@link #SWITCH_MARGIN} below it.
     */
    public GroupPolicy choose(CallShape call) {
        GroupPolicy best = PER_CALL[0];
        double cheapest = micros(best, call);
        for (int i = 1; i < PER_CALL.length; i++) {
            double cost = micros(PER_CALL[i], call);
            if (cost < cheapest) {
                best = PER_CALL[i];
                cheapest = cost;
            }
        }
        GroupPolicy incumbent = incumbents.isEmpty() ? null : incumbents.get(call);
        return incumbent != null && micros(incumbent, call) <= cheapest * (1 + SWITCH_MARGIN) ? incumbent : best;
    }

    /**
     * A persistent request's policy: persistent unless the point-to-point sends are predicted cheaper than a static
     * call of that shape (a start costs no more than a static call: no management either, and a smaller group).
     */
    public GroupPolicy chooseRequest(CallShape start) {
        return micros(GroupPolicy.STATIC, start) <= micros(GroupPolicy.TREE, start) ? GroupPolicy.PERSISTENT
                : GroupPolicy.TREE;
    }

    /**
     * An allgather's policy among {@code members}: n one-to-all multicasts on the static group against the tree's
     * allgather, which the model's one-to-(n-1) scatters stand for.
     */
    public GroupPolicy chooseAllgather(int members, long bytesPerRank) {
        CallShape call = CallShape.scatter(Math.max(1, members - 1), bytesPerRank);
        return micros(GroupPolicy.STATIC, call) <= micros(GroupPolicy.TREE, call) ? GroupPolicy.STATIC : GroupPolicy.TREE;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("policy costs measured one-to-" + fewTargets
                + (manyTargets == fewTargets ? "" : " | one-to-" + manyTargets) + ":");
        for (GroupPolicy policy : PER_CALL) {
            Lines both = lines.get(policy);
            text.append(' ').append(policy.configName()).append(' ').append(format(both.few()));
            if (manyTargets != fewTargets) {
                text.append(" | ").append(format(both.many()));
            }
            text.append(';');
        }
        corrections.forEach((policy, byClass) -> byClass.forEach((sizeClass, factor) -> text.append(String.format(
                Locale.ROOT, " %s x%.2f at %s targets, %s B;", policy.configName(), factor,
                sizeClass < 64 ? fewTargets : manyTargets, sizeClass % 64 == 0 ? "0" : (1L << (sizeClass % 64 - 1))
                        + "-" + ((1L << (sizeClass % 64)) - 1)))));
        return text.toString();
    }

    private static String format(Line line) {
        return String.format(Locale.ROOT, "%.0f us + %.4f us/B", line.fixedMicros(), line.perByteMicros());
    }
}
