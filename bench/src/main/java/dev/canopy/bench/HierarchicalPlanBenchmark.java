package dev.canopy.bench;

import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.internal.engine.ExchangeFlow;
import dev.canopy.core.comm.MessageLimits;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlan;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.synthetic.SyntheticGrid;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The model's evaluation cost at scale: a hierarchical plan of 10,000 processes (the synthetic
 * 8 x 5 x 5 x 10 x 5 grid of {@code canopy bench topology}, seed 42), {@code auto} at every level,
 * under the bandwidth-aware model: every site behind its seeded uplink of 10 Mb/s to 10 Gb/s, the
 * runtime's default pipelining, so every candidate tree of every group is replayed send
 * by send. Target: under 1 s per plan. Planning iterations take up to a second, hence the longer
 * iterations than the defaults. On a machine loaded far beyond its cores, {@link PlanningCpuTime} gives the
 * planning thread's CPU time beside the wall time.
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 5)
public class HierarchicalPlanBenchmark extends BenchmarkDefaults {

    static final SyntheticGrid.Shape TEN_THOUSAND = new SyntheticGrid.Shape(8, 5, 5, 10, 5);
    static final long SEED = 42;

    @Param({"2", "1048576", "16777216"})
    long messageBytes;

    private SyntheticGrid grid;
    private Hierarchy hierarchy;
    private HierarchicalPlanner planner;
    private String root;

    @Setup
    public void setUp() {
        grid = SyntheticGrid.generate(SEED, TEN_THOUSAND);
        hierarchy = grid.hierarchy();
        root = grid.nodes().get(0);
        planner = planner(grid, messageBytes);
    }

    /**
     * {@code auto} at every level, 20 µs per send, 8e-6 ms per byte, the grid's uplinks, the default pipelining and
     * the runtime's default flow control between 10,000 processes (a 256 KiB window each).
     */
    static HierarchicalPlanner planner(SyntheticGrid grid, long messageBytes) {
        CostModel cost = new CostModel(0.02, 0, 8e-6, messageBytes).withBandwidths(grid.bandwidths())
                .withSegments(CollectiveSettings.defaults().pipeline())
                .withFlow(ExchangeFlow.of(MessageLimits.defaults(), grid.nodes().size()));
        return new HierarchicalPlanner(LevelAlgorithms.everywhere(TreeAlgorithm.AUTO), cost);
    }

    @Benchmark
    public HierarchicalPlan plan() {
        return planner.plan(hierarchy, grid.latencies(), root, 1).orElseThrow();
    }
}
