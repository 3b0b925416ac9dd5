package dev.canopy.cli.demo;

import dev.canopy.cli.collectives.GridTimes;
import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.comm.Communicator;
import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The demo's side-by-side bcast: flat, binomial and HLOT trees at the heavy-WAN level (the other levels as
 * the level file says) over the running grid, from the first rank of the file's first site, each measured
 * beside the cost model's prediction and the lower bound no tree can beat. The algorithms take turns in
 * every round, so load on the machine hits them alike.
 */
final class DemoTreeRace {

    private static final List<TreeAlgorithm> ALGORITHMS = List.of(TreeAlgorithm.FLAT, TreeAlgorithm.BINOMIAL,
            TreeAlgorithm.HLOT);
    private static final int[] SIZES = {1024, 65_536};
    private static final int TIMED = 3;

    private final GridModel grid;
    private final PrintWriter out;
    private final Function<Future<?>, Object> await;

    /** @param await waits for a demo step, failing the demo when it fails or takes too long */
    DemoTreeRace(GridModel grid, PrintWriter out, Function<Future<?>, Object> await) {
        this.grid = grid;
        this.out = out;
        this.await = await;
    }

    /** Whether there is a WAN for the trees to differ on. */
    static boolean worthRunning(GridModel grid) {
        return grid.sites().size() > 1;
    }

    /** Times bcast by each tree over {@code worlds} (every node's WORLD, by rank). */
    void run(List<Communicator> worlds) {
        String rootSite = grid.sites().get(0).name();
        int root = 0;
        while (!worlds.get(0).member(root).coordinates().site().equals(rootSite)) {
            root++;
        }
        GridTimes model = new GridTimes(grid, worlds.get(0).members());
        out.printf(Locale.ROOT, "bcast from rank %d (site %s) by each heavy-WAN tree, median of %d:%n", root, rootSite,
                TIMED);
        TextTable table = TextTable.of(Column.integer("bytes", null), Column.text("tree"), Column.decimal("measured", "ms", 1),
                Column.decimal("predicted", "ms", 1), Column.decimal("lower bound", "ms", 1));
        for (int bytes : SIZES) {
            List<List<Collectives>> contenders = new ArrayList<>();
            for (TreeAlgorithm algorithm : ALGORITHMS) {
                contenders.add(planned(worlds, algorithm, bytes));
            }
            Buffer message = Buffer.buffer(new byte[bytes]);
            double[][] millis = new double[ALGORITHMS.size()][TIMED];
            for (int i = -1; i < TIMED; i++) { // round -1 warms every tree up, untimed
                for (int a = 0; a < ALGORITHMS.size(); a++) {
                    double ms = time(contenders.get(a), message, root);
                    if (i >= 0) {
                        millis[a][i] = ms;
                    }
                }
            }
            for (int a = 0; a < ALGORITHMS.size(); a++) {
                TopologyPlan plan = ConfiguredPlans.of(worlds.get(0).members(), grid, levels(ALGORITHMS.get(a)), bytes);
                table.row(bytes, ALGORITHMS.get(a).configName(),
                        median(millis[a]), model.predictedMs(plan, root, CollectiveSettings.defaults().pipeline(), bytes),
                        model.lowerBoundMs(root, bytes));
            }
        }
        out.print(table.render());
        out.println();
        out.flush();
    }

    private List<Collectives> planned(List<Communicator> worlds, TreeAlgorithm algorithm, int bytes) {
        return worlds.stream().map(world -> new Collectives(world,
                ConfiguredPlans.of(world.members(), grid, levels(algorithm), bytes), CollectiveSettings.defaults())).toList();
    }

    private LevelAlgorithms levels(TreeAlgorithm heavyWan) {
        return LevelChoices.of(grid.levels()).with(Level.HEAVY_WAN, heavyWan);
    }

    /** One bcast from {@code root}: ms from the root's call until every member has the message. */
    private double time(List<Collectives> members, Buffer message, int root) {
        List<Future<Buffer>> calls = new ArrayList<>();
        for (Collectives member : members) {
            if (member.rank() != root) {
                calls.add(member.bcast(null, root));
            }
        }
        long start = System.nanoTime();
        calls.add(members.get(root).bcast(message, root));
        await.apply(Future.all(calls));
        double ms = (System.nanoTime() - start) / 1e6;
        for (Future<Buffer> call : calls) {
            if (call.result().length() != message.length()) {
                throw new IllegalStateException("a bcast of " + message.length() + " bytes delivered " + call.result().length());
            }
        }
        return ms;
    }

    private static double median(double[] samples) {
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
