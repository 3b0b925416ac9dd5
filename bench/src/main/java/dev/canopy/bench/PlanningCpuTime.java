package dev.canopy.bench;

import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import dev.canopy.topology.internal.synthetic.SyntheticGrid;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@link HierarchicalPlanBenchmark}'s plans timed by the planning thread's CPU time as well as wall time: on
 * a shared machine whose load average is many times its cores, wall time says more about the neighbours
 * than about the planner, while CPU time is what one idle core would take. Median of 7 after 3 warm-ups.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.canopy.bench.PlanningCpuTime</pre>
 */
public final class PlanningCpuTime {

    private static final int WARM_UPS = 3;
    private static final int RUNS = 7;

    private PlanningCpuTime() {
    }

    public static void main(String[] args) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        SyntheticGrid grid = SyntheticGrid.generate(HierarchicalPlanBenchmark.SEED, HierarchicalPlanBenchmark.TEN_THOUSAND);
        Hierarchy hierarchy = grid.hierarchy();
        String root = grid.nodes().get(0);
        System.out.println("planning 10,000 processes (8x5x5x10x5, seed " + HierarchicalPlanBenchmark.SEED
                + "), auto at every level, site uplinks 10 Mb/s to 10 Gb/s, default pipelining");
        for (long bytes : new long[] {2, 1 << 20, 16 << 20}) {
            HierarchicalPlanner planner = HierarchicalPlanBenchmark.planner(grid, bytes);
            double[] cpuMs = new double[RUNS];
            double[] wallMs = new double[RUNS];
            for (int run = -WARM_UPS; run < RUNS; run++) {
                long cpu = threads.getCurrentThreadCpuTime();
                long wall = System.nanoTime();
                planner.plan(hierarchy, grid.latencies(), root, 1).orElseThrow();
                if (run >= 0) {
                    cpuMs[run] = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;
                    wallMs[run] = (System.nanoTime() - wall) / 1e6;
                }
            }
            Arrays.sort(cpuMs);
            Arrays.sort(wallMs);
            System.out.printf(Locale.ROOT, "%10d bytes: CPU median %6.0f ms (min %6.0f), wall median %6.0f ms (min %6.0f)%n",
                    bytes, cpuMs[RUNS / 2], cpuMs[0], wallMs[RUNS / 2], wallMs[0]);
        }
    }
}
