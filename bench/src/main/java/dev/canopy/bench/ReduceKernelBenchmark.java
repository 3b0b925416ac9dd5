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
 * {@link BuiltInOp#SUM} combining two big-endian vectors (the element-wise kernel every reduction
 * step runs), beside the same sum over plain Java arrays as a yardstick for the kernel's overhead.
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ReduceKernelBenchmark extends BenchmarkDefaults {

    @Param({"INT", "DOUBLE"})
    ElementType type;

    /** 1 Ki and 256 Ki elements: 4 or 8 KiB, 1 or 2 MiB per vector. */
    @Param({"1024", "262144"})
    int elements;

    private Buffer left;
    private Buffer right;
    private int[] leftInts;
    private int[] rightInts;
    private double[] leftDoubles;
    private double[] rightDoubles;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(3);
        left = SeededBuffers.vector(random, type, elements);
        right = SeededBuffers.vector(random, type, elements);
        leftInts = new int[elements];
        rightInts = new int[elements];
        leftDoubles = new double[elements];
        rightDoubles = new double[elements];
        for (int i = 0; i < elements; i++) {
            if (type == ElementType.INT) {
                leftInts[i] = left.getInt(i * Integer.BYTES);
                rightInts[i] = right.getInt(i * Integer.BYTES);
            } else {
                leftDoubles[i] = left.getDouble(i * Double.BYTES);
                rightDoubles[i] = right.getDouble(i * Double.BYTES);
            }
        }
    }

    @Benchmark
    public Buffer sum() {
        return BuiltInOp.SUM.combine(type, left, right);
    }

    /** The yardstick: a new array of element-wise sums, no byte order, no buffer. */
    @Benchmark
    public Object plainArraySum() {
        if (type == ElementType.INT) {
            int[] out = new int[elements];
            for (int i = 0; i < elements; i++) {
                out[i] = leftInts[i] + rightInts[i];
            }
            return out;
        }
        double[] out = new double[elements];
        for (int i = 0; i < elements; i++) {
            out[i] = leftDoubles[i] + rightDoubles[i];
        }
        return out;
    }
}
