package dev.canopy.bench;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.Tree;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import dev.canopy.topology.internal.tree.TreeBuilder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One broadcast tree from node 0 over the dense view of a {@link PlannerInputs} latency graph, per
 * planner. The graph is loaded and its matrix built once per trial; only {@link TreeBuilder#build}
 * is timed.
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TreeBuilderBenchmark extends BenchmarkDefaults {

    /** 10 us per send, a 1 KiB message at 100 Mbit/s: send order matters, as in a real plan. */
    private static final CostModel COST = new CostModel(0.01, 0, 8e-5, 1024);

    @Param({"HLOT", "BINOMIAL", "MST", "SPT"})
    TreeAlgorithm algorithm;

    @Param({"64", "1000"})
    int nodes;

    private LatencyMatrix matrix;
    private TreeBuilder builder;

    @Setup
    public void setUp() {
        PlannerInputs.Input input = PlannerInputs.ofSize(nodes);
        System.out.println("planner input: " + input.description() + ", " + input.graph());
        matrix = input.graph().toMatrix();
        builder = algorithm.builder();
    }

    @Benchmark
    public Tree build() {
        return builder.build(matrix, 0, COST).orElseThrow();
    }
}
