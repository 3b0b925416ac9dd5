package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code auto}'s choice among the one-to-many policies ({@code static}, {@code dynamic}, {@code tree}), from
 * costs measured on this deployment by {@link PolicyCalibration}, never from constants: for each
 * policy, the time of a one-to-{@code k} operation at two piece sizes (the root's call until every member has
 * passed a barrier behind it, less the barrier of the same round), so the fixed part holds that policy's group management
 * (a dynamic group's lease, announcement, joins and drop) and the per-byte part its data path.
 *
 * <p>Each policy's cost is {@code fixed + perByte * bytes}, with {@code bytes} all the bytes the root sends
 * ({@code targets x bytes per target}); measured at {@code k} targets, it is applied to other target counts
 * through those bytes (the management of a dynamic group grows little with its size: the targets join in
 * parallel). Every member holds the same model (rank 0 measures and broadcasts it; {@link AutoPolicy} corrects
 * it from the operations' times at points the members agree on), so every member reaches the same choice for the
 * same call.
 *
 * @param measuredTargets k, the targets of the calibration
 */
public record PolicyCostModel(int measuredTargets, Map<GroupPolicy, Line> lines) {

    /** One policy's cost: {@code fixedMicros + perByteMicros * bytes}. */
    public record Line(double fixedMicros, double perByteMicros) {

        double micros(long bytes) {
            return fixedMicros + perByteMicros * bytes;
        }
    }

    /** The policies {@code auto} chooses among for one call, in the order they are encoded. */
    static final GroupPolicy[] PER_CALL = {GroupPolicy.STATIC, GroupPolicy.DYNAMIC, GroupPolicy.TREE};

    public PolicyCostModel {
        lines = Map.copyOf(new EnumMap<>(lines));
        for (GroupPolicy policy : PER_CALL) {
            if (!lines.containsKey(policy)) {
                throw new IllegalArgumentException("the policy cost model has no measurement of " + policy.configName());
            }
        }
    }

    /** A model where everything is free (a communicator of one member: there is nothing to measure). */
    static PolicyCostModel free() {
        Map<GroupPolicy, Line> lines = new EnumMap<>(GroupPolicy.class);
        for (GroupPolicy policy : PER_CALL) {
            lines.put(policy, new Line(0, 0));
        }
        return new PolicyCostModel(0, lines);
    }

    /**
     * This model with each policy's line drawn again through its points at {@code smallBytes} and {@code largeBytes}
     * multiplied by {@code scales.get(policy)[0]} and {@code [1]} (a policy without scales, or with both 1, keeps its
     * line).
     */
    PolicyCostModel corrected(Map<GroupPolicy, double[]> scales, long smallBytes, long largeBytes) {
        if (smallBytes >= largeBytes) {
            return this; // nothing was measured (a communicator of one member)
        }
        Map<GroupPolicy, Line> corrected = new EnumMap<>(GroupPolicy.class);
        lines.forEach((policy, line) -> {
            double[] scale = scales.getOrDefault(policy, new double[] {1, 1});
            corrected.put(policy, scale[0] == 1 && scale[1] == 1 ? line : through(smallBytes,
                    line.micros(smallBytes) * scale[0], largeBytes, line.micros(largeBytes) * scale[1]));
        });
        return new PolicyCostModel(measuredTargets, corrected);
    }

    /** The line through two measurements: {@code smallMicros} at {@code smallBytes}, {@code largeMicros} at {@code largeBytes}. */
    static Line through(long smallBytes, double smallMicros, long largeBytes, double largeMicros) {
        double perByte = Math.max(0, (largeMicros - smallMicros) / (largeBytes - smallBytes));
        return new Line(Math.max(0, smallMicros - perByte * smallBytes), perByte);
    }

    /** The predicted cost of a one-to-{@code targets} operation of {@code bytesPerTarget} by {@code policy}. */
    public double micros(GroupPolicy policy, int targets, long bytesPerTarget) {
        Line line = lines.get(policy);
        if (line == null) {
            throw new IllegalArgumentException("no cost of " + policy.configName() + " was measured");
        }
        return line.micros(bytesPerTarget * targets);
    }

    /** The cheapest of static, dynamic and tree for this call. */
    public GroupPolicy choose(int targets, long bytesPerTarget) {
        GroupPolicy best = PER_CALL[0];
        for (GroupPolicy policy : PER_CALL) {
            if (micros(policy, targets, bytesPerTarget) < micros(best, targets, bytesPerTarget)) {
                best = policy;
            }
        }
        return best;
    }

    /**
     * A persistent request's policy: persistent unless the point-to-point sends are predicted cheaper than a static
     * call at these sizes (a start costs no more than a static call: no management either, and a smaller group).
     */
    public GroupPolicy chooseRequest(int targets, long largestPiece) {
        return micros(GroupPolicy.STATIC, targets, largestPiece) <= micros(GroupPolicy.TREE, targets, largestPiece)
                ? GroupPolicy.PERSISTENT : GroupPolicy.TREE;
    }

    /**
     * An allgather's policy among {@code members}: n one-to-all multicasts on the static group against the tree's
     * allgather, which the model's one-to-(n-1) tree sends stand for.
     */
    public GroupPolicy chooseAllgather(int members, long bytesPerRank) {
        return micros(GroupPolicy.STATIC, members - 1, bytesPerRank) <= micros(GroupPolicy.TREE, members - 1, bytesPerRank)
                ? GroupPolicy.STATIC : GroupPolicy.TREE;
    }

    /** {@code k, then fixed and per-byte of each PER_CALL policy}: what rank 0 broadcasts. */
    double[] encode() {
        double[] values = new double[1 + 2 * PER_CALL.length];
        values[0] = measuredTargets;
        for (int i = 0; i < PER_CALL.length; i++) {
            Line line = lines.get(PER_CALL[i]);
            values[1 + 2 * i] = line.fixedMicros();
            values[2 + 2 * i] = line.perByteMicros();
        }
        return values;
    }

    /** The model rank 0 broadcast, checked: the right count of finite, non-negative numbers. */
    static PolicyCostModel decode(double[] values) {
        if (values.length != 1 + 2 * PER_CALL.length) {
            throw new MalformedMessageException("policy cost model of " + values.length
                    + " numbers, expected " + (1 + 2 * PER_CALL.length));
        }
        Map<GroupPolicy, Line> lines = new EnumMap<>(GroupPolicy.class);
        for (double value : values) {
            if (!(value >= 0) || Double.isInfinite(value)) {
                throw new MalformedMessageException("policy cost model holds " + value
                        + ", not a finite cost >= 0");
            }
        }
        for (int i = 0; i < PER_CALL.length; i++) {
            lines.put(PER_CALL[i], new Line(values[1 + 2 * i], values[2 + 2 * i]));
        }
        return new PolicyCostModel((int) values[0], lines);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("policy costs measured one-to-" + measuredTargets + ":");
        for (GroupPolicy policy : PER_CALL) {
            Line line = lines.get(policy);
            text.append(String.format(Locale.ROOT, " %s %.0f us + %.4f us/B;", policy.configName(), line.fixedMicros(),
                    line.perByteMicros()));
        }
        return text.toString();
    }
}
