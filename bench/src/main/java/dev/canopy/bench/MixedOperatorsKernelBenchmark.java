package dev.canopy.bench;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.reduce.BuiltInOp;
import io.vertx.core.buffer.Buffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@link BuiltInOp#SUM} on 1 Ki elements, as in {@link ReduceKernelBenchmark}, but in a JVM where
 * every built-in operator has already reduced INT, DOUBLE and DOUBLE_INDEX vectors: the JIT has
 * seen them all pass through the element loops, as it has in a long-running node, so a loop that
 * dispatched per element through a call it can no longer inline shows here, not in a JVM that
 * only ever summed.
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MixedOperatorsKernelBenchmark extends BenchmarkDefaults {

    /** Enough rounds of every operator for the JIT to profile and compile the loops on them. */
    private static final int ROUNDS_PER_OPERATOR = 2_000;
    private static final int ELEMENTS = 1024;

    @Param({"INT", "DOUBLE"})
    ElementType type;

    private Buffer left;
    private Buffer right;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(5);
        left = SeededBuffers.vector(random, type, ELEMENTS);
        right = SeededBuffers.vector(random, type, ELEMENTS);
        Buffer ints = SeededBuffers.vector(random, ElementType.INT, ELEMENTS);
        Buffer doubles = SeededBuffers.vector(random, ElementType.DOUBLE, ELEMENTS);
        Buffer pairs = SeededBuffers.vector(random, ElementType.INT, 3 * ELEMENTS); // 1 Ki (double, int) pairs
        for (int round = 0; round < ROUNDS_PER_OPERATOR; round++) {
            for (BuiltInOp op : BuiltInOp.values()) {
                switch (op) {
                    case MINLOC, MAXLOC -> op.combine(ElementType.DOUBLE_INDEX, pairs, pairs);
                    case SUM, PROD, MIN, MAX -> {
                        op.combine(ElementType.INT, ints, ints);
                        op.combine(ElementType.DOUBLE, doubles, doubles);
                    }
                    default -> op.combine(ElementType.INT, ints, ints);
                }
            }
        }
    }

    @Benchmark
    public Buffer sum() {
        return BuiltInOp.SUM.combine(type, left, right);
    }
}
