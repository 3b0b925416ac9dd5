package dev.canopy.collectives.internal.multicast;

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
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code auto} starts from, measured when a communicator's {@link GroupCollectives} opens: rank 0 runs
 * one-to-k scatters (k = min(5, n - 1)) by static, dynamic and tree at {@link #SMALL_BYTES} and {@link #LARGE_BYTES}
 * per target, each followed by a barrier and then a barrier alone, {@link #WARMUP} untimed rounds and {@link #RUNS}
 * timed ones. Each run's cost is its time less the barrier of the same round (measured in the same conditions); a
 * step's cost is the interquartile mean of its runs ({@link #estimate}), so a few runs slowed by other work on a
 * loaded machine, or a lucky one, do not move it. Rank 0 bcasts the model: every member chooses alike. Every member
 * takes part in every step.
 */
final class PolicyCalibration {

    private static final Logger LOG = LoggerFactory.getLogger(PolicyCalibration.class);

    static final int SMALL_BYTES = 16;
    static final int LARGE_BYTES = 16_384;
    static final int RUNS = 9;
    /** Untimed rounds first: the first runs of a fresh JVM are the JIT's, not the policy's. */
    static final int WARMUP = 2;
    /** The share of runs cut from each end before averaging. */
    static final double TRIM = 0.25;

    /** One calibration run: a one-to-many call by {@code policy} from rank 0 to {@code targets}. */
    @FunctionalInterface
    interface Step {
        Future<?> run(GroupPolicy policy, int[] targets, List<Buffer> pieces);
    }

    private final GroupScope scope;
    private final Step step;

    PolicyCalibration(GroupScope scope, Step step) {
        this.scope = scope;
        this.step = step;
    }

    Future<PolicyCostModel> measure() {
        int k = Math.min(5, scope.size() - 1);
        if (k < 1) {
            return Future.succeededFuture(PolicyCostModel.free());
        }
        int[] targets = IntStream.rangeClosed(1, k).toArray();
        int steps = PolicyCostModel.PER_CALL.length * 2;
        long[][] samples = new long[steps][RUNS];
        Future<Void> chain = Future.succeededFuture();
        for (int run = -WARMUP; run < RUNS; run++) {
            for (int which = 0; which < steps; which++) {
                GroupPolicy policy = PolicyCostModel.PER_CALL[which / 2];
                int bytes = which % 2 == 0 ? SMALL_BYTES : LARGE_BYTES;
                int index = run;
                int stepIndex = which;
                chain = chain.compose(ignored -> timed(() -> {
                    List<Buffer> pieces = scope.rank() == 0 ? Collections.nCopies(k, Buffer.buffer(new byte[bytes])) : null;
                    return step.run(policy, targets, pieces).compose(done -> scope.collectives.barrier());
                })).compose(nanos -> timed(scope.collectives::barrier).map(barrierNanos -> {
                    if (index >= 0) {
                        samples[stepIndex][index] = nanos - barrierNanos;
                    }
                    return null;
                }));
            }
        }
        return chain.compose(measured -> {
            Buffer model = null;
            if (scope.rank() == 0) {
                PolicyCostModel measuredModel = model(k, samples);
                LOG.info("groups of context {}: one-to-{} step costs (ns, each run less its barrier) {}; {}",
                        scope.communicator.contextId(), k, Arrays.stream(samples).map(Arrays::toString).toList(),
                        measuredModel);
                model = ValueCodec.encode(measuredModel.encode());
            }
            return scope.collectives.bcast(model, 0).map(bytes -> PolicyCostModel.decode(ValueCodec.doubles(bytes)));
        });
    }

    /** The model of {@code samples} (nanoseconds, per step: static small, static large, dynamic small, ...). */
    static PolicyCostModel model(int k, long[][] samples) {
        Map<GroupPolicy, PolicyCostModel.Line> lines = new EnumMap<>(GroupPolicy.class);
        for (int i = 0; i < PolicyCostModel.PER_CALL.length; i++) {
            double small = Math.max(0, estimate(samples[2 * i]) / 1e3);
            double large = Math.max(0, estimate(samples[2 * i + 1]) / 1e3);
            lines.put(PolicyCostModel.PER_CALL[i], PolicyCostModel.through((long) k * SMALL_BYTES, small,
                    (long) k * LARGE_BYTES, large));
        }
        return new PolicyCostModel(k, lines);
    }

    /** The interquartile mean of {@code runs}: the probes' trimmed mean, robust to outliers either way. */
    static double estimate(long[] runs) {
        TimeSeries series = new TimeSeries(runs.length);
        Arrays.stream(runs).forEach(series::add);
        return new TrimmedMean(runs.length, TRIM).forecast(series).orElse(0);
    }

    private <T> Future<Long> timed(Supplier<Future<T>> body) {
        long start = System.nanoTime();
        return body.get().map(done -> System.nanoTime() - start);
    }
}
