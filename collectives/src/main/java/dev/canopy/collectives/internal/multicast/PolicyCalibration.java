package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.collectives.data.ValueCodec;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import dev.canopy.probes.internal.forecast.TimeSeries;
import dev.canopy.probes.internal.forecast.TrimmedMean;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code auto} starts from, measured when a communicator's {@link GroupCollectives} opens: rank 0 runs
 * one-to-few (few = min(5, n - 1)) and one-to-many (many = n - 1, when more than few) scatters by static, dynamic and
 * tree at {@link #SMALL_BYTES} and {@link #LARGE_BYTES} per target, {@link #WARMUP} untimed rounds and {@link #RUNS}
 * timed ones, each run behind a barrier that lines the members up. Each run is timed as {@link AutoPolicy} times the
 * real operations later ({@link CallTimer}: from the root's start until the last target had its piece, on the root's
 * clock; the same path, so the refresh's ratios start near 1); after the last run the members allgather their times
 * (the root's, and 0 from the others), a run's cost is the largest over the members, and a
 * step's cost is the interquartile mean of its runs ({@link #estimate}), so a few runs slowed by other work on a
 * loaded machine, or a lucky one, do not move it. Every member reduces the same gathered times to the same model.
 *
 * <p>(An earlier version timed the root's call plus a barrier, less a barrier alone: on a loaded 2-core machine with
 * 29 members the two barriers differed by tens of milliseconds, far more than the sub-millisecond steps, and the
 * samples came out negative as often as not.)
 */
final class PolicyCalibration {

    private static final Logger LOG = LoggerFactory.getLogger(PolicyCalibration.class);

    static final int SMALL_BYTES = 16;
    static final int LARGE_BYTES = 16_384;
    static final int FEW_TARGETS = 5;
    static final int RUNS = 9;
    /** Untimed rounds first: the first runs of a fresh JVM are the JIT's, not the policy's. */
    static final int WARMUP = 2;
    /** The share of runs cut from each end before averaging. */
    static final double TRIM = 0.25;
    private static final int SIZES = 2;

    /**
     * One calibration run: a one-to-many call by {@code policy} from rank 0 to {@code targets}, completing with its
     * time in microseconds at rank 0 ({@link CallTimer}), 0 elsewhere.
     */
    @FunctionalInterface
    interface Step {
        Future<Double> run(GroupPolicy policy, int[] targets, List<Buffer> pieces);
    }

    private final GroupScope scope;
    private final Step step;

    PolicyCalibration(GroupScope scope, Step step) {
        this.scope = scope;
        this.step = step;
    }

    Future<PolicyCostModel> measure() {
        int many = scope.size() - 1;
        int few = Math.min(FEW_TARGETS, many);
        if (few < 1) {
            return Future.succeededFuture(PolicyCostModel.free());
        }
        int[] counts = few == many ? new int[] {few} : new int[] {few, many};
        int steps = steps(counts.length);
        double[] mine = new double[steps * RUNS]; // this member's micros, step by step, run by run
        Future<Void> chain = Future.succeededFuture();
        for (int run = -WARMUP; run < RUNS; run++) {
            for (int which = 0; which < steps; which++) {
                int[] targets = IntStream.rangeClosed(1, counts[which / (PolicyCostModel.PER_CALL.length * SIZES)])
                        .toArray();
                GroupPolicy policy = policyOf(which);
                int bytes = which % SIZES == 0 ? SMALL_BYTES : LARGE_BYTES;
                int slot = run < 0 ? -1 : which * RUNS + run;
                chain = chain.compose(ignored -> scope.collectives.barrier()).compose(lined -> {
                    List<Buffer> pieces = scope.rank() == 0
                            ? Collections.nCopies(targets.length, Buffer.buffer(new byte[bytes])) : null;
                    return step.run(policy, targets, pieces).map(micros -> {
                        if (slot >= 0) {
                            mine[slot] = micros;
                        }
                        return null;
                    });
                });
            }
        }
        return chain.compose(measured -> scope.collectives.allgatherv(ValueCodec.encode(mine))).map(all -> {
            PolicyCostModel model = model(few, many, slowest(all, steps));
            if (scope.rank() == 0) {
                LOG.info("groups of context {}: auto's calibration {}", scope.communicator.contextId(), model);
            }
            return model;
        });
    }

    /** Per step and run, the largest time over the members' reports (checked: that many finite times >= 0). */
    static double[][] slowest(List<Buffer> reports, int steps) {
        double[][] slowest = new double[steps][RUNS];
        for (int rank = 0; rank < reports.size(); rank++) {
            double[] times = ValueCodec.doubles(reports.get(rank));
            if (times.length != steps * RUNS || Arrays.stream(times).anyMatch(t -> !(t >= 0) || Double.isInfinite(t))) {
                throw new MalformedMessageException("auto's calibration times from rank " + rank + ": expected "
                        + steps * RUNS + " finite times >= 0, got " + times.length + " numbers");
            }
            for (int i = 0; i < times.length; i++) {
                slowest[i / RUNS][i % RUNS] = Math.max(slowest[i / RUNS][i % RUNS], times[i]);
            }
        }
        return slowest;
    }

    /**
     * The model of {@code micros} (per step, its runs: for few targets then many, static small, static large, dynamic
     * small, ..., tree large; the many steps absent when {@code many == few}).
     */
    static PolicyCostModel model(int few, int many, double[][] micros) {
        Map<GroupPolicy, PolicyCostModel.Lines> lines = new EnumMap<>(GroupPolicy.class);
        for (int p = 0; p < PolicyCostModel.PER_CALL.length; p++) {
            PolicyCostModel.Line fewLine = line(few, micros, p * SIZES);
            PolicyCostModel.Line manyLine = many == few ? fewLine
                    : line(many, micros, (PolicyCostModel.PER_CALL.length + p) * SIZES);
            lines.put(PolicyCostModel.PER_CALL[p], new PolicyCostModel.Lines(fewLine, manyLine));
        }
        return new PolicyCostModel(few, many, lines);
    }

    private static PolicyCostModel.Line line(int targets, double[][] micros, int smallStep) {
        return PolicyCostModel.through((long) targets * SMALL_BYTES, estimate(micros[smallStep]),
                (long) targets * LARGE_BYTES, estimate(micros[smallStep + 1]));
    }

    /** The interquartile mean of {@code runs}: the probes' trimmed mean, robust to outliers either way. */
    static double estimate(double[] runs) {
        TimeSeries series = new TimeSeries(runs.length);
        Arrays.stream(runs).forEach(series::add);
        return new TrimmedMean(runs.length, TRIM).forecast(series).orElse(0);
    }

    static int steps(int targetCounts) {
        return targetCounts * PolicyCostModel.PER_CALL.length * SIZES;
    }

    private static GroupPolicy policyOf(int step) {
        return PolicyCostModel.PER_CALL[(step / SIZES) % PolicyCostModel.PER_CALL.length];
    }
}
