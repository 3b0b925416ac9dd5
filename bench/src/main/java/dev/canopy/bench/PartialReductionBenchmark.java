package dev.canopy.bench;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.reduce.PartialReduction;
import io.vertx.core.buffer.Buffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One step of a tree reduction at a parent: merge a child's {@link PartialReduction} into its own
 * (one SUM combine, since SUM is commutative), and the wire encode and decode of a partial result.
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PartialReductionBenchmark extends BenchmarkDefaults {

    @Param({"DOUBLE"})
    ElementType type;

    @Param({"1024", "262144"})
    int elements;

    private PartialReduction own;
    private PartialReduction child;
    private Buffer childWire;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(4);
        own = PartialReduction.of(0, SeededBuffers.vector(random, type, elements));
        child = PartialReduction.of(1, SeededBuffers.vector(random, type, elements));
        childWire = child.encode();
    }

    @Benchmark
    public PartialReduction merge() {
        return own.merge(child, BuiltInOp.SUM, type);
    }

    @Benchmark
    public Buffer encode() {
        return child.encode();
    }

    @Benchmark
    public PartialReduction decode() {
        return PartialReduction.decode(childWire);
    }
}
