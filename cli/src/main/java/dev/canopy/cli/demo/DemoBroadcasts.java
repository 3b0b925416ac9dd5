package dev.canopy.cli.demo;

import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.multicast.BroadcastLayers;
import dev.canopy.collectives.internal.multicast.Carrier;
import dev.canopy.collectives.internal.multicast.MulticastFabrics;
import dev.canopy.collectives.internal.multicast.MulticastPath;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.ThreadDelayScheduler;
import dev.canopy.dashboard.model.DashboardState;
import dev.canopy.dashboard.multicast.MulticastFigures;
import dev.canopy.dashboard.multicast.MulticastSource;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * When the level file asks for multicast (or {@code auto}) at the LAN or cluster level: bcast from rank 0 by
 * the multicast layer beside the point-to-point trees, timed. The demo's nodes share one JVM, so the
 * in-process {@code emulated-ud} fabric stands in for IP multicast (which never leaves loopback here) and for
 * the cluster fabric; {@code canopy launch} has neither and names its fallback in its log instead.
 */
final class DemoBroadcasts {

    private static final int[] SIZES = {8, 65_536, 1 << 20};
    private static final int TIMED = 3;
    /** How often the multicast view is refreshed while the race runs (window occupancy changes within a bcast). */
    private static final Duration LIVE_PERIOD = Duration.ofMillis(250);

    private final GridModel grid;
    private final PrintWriter out;
    private final Function<Future<?>, Object> await;
    private final DashboardState dashboard;

    /**
     * @param await     waits for a demo step, failing the demo when it fails or takes too long
     * @param dashboard where the multicast layer's counters are published after every size (the multicast view)
     */
    DemoBroadcasts(GridModel grid, PrintWriter out, Function<Future<?>, Object> await, DashboardState dashboard) {
        this.grid = grid;
        this.out = out;
        this.await = await;
        this.dashboard = dashboard;
    }

    /** Whether the level file asks for anything this step shows. */
    static boolean asked(GridModel grid) {
        return !LevelChoices.multicastLevels(grid.levels()).isEmpty();
    }

    /** Times bcast both ways over {@code worlds} (every node's WORLD, by rank). */
    void run(List<Communicator> worlds) {
        ThreadDelayScheduler wire = new ThreadDelayScheduler("demo-emulated-ud");
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.perfect(), NanoClock.SYSTEM, wire);
        List<Collectives> trees = new ArrayList<>();
        List<Collectives> layered = new ArrayList<>();
        try {
            List<Future<Collectives>> plugging = new ArrayList<>();
            for (Communicator world : worlds) {
                Collectives collectives = new Collectives(world, ConfiguredPlans.of(world.members(), grid),
                        CollectiveSettings.defaults());
                trees.add(collectives);
                plugging.add(BroadcastLayers.plugInto(collectives, grid.levels(), MulticastFabrics.emulated(fabric),
                        MulticastOptions.DEFAULTS));
            }
            for (Future<Collectives> plugged : plugging) {
                layered.add((Collectives) await.apply(plugged));
            }
            Collectives first = layered.get(0);
            Optional<String> fallback = first.broadcastPath().fallback();
            if (!(first.broadcastPath() instanceof MulticastPath path)) {
                out.printf(Locale.ROOT, "bcast: the level file asks for multicast, but bcast falls back to the"
                        + " point-to-point trees: %s%n%n", fallback.orElse("no level could multicast"));
                return;
            }
            out.printf(Locale.ROOT, "bcast from rank 0 over WORLD, median of %d; multicast layer: %s%n", TIMED,
                    path.description());
            out.printf(Locale.ROOT, "(the emulated-ud fabric stands in for IP multicast and the cluster fabric: the"
                    + " nodes share one JVM on loopback)%n%n");
            TextTable table = TextTable.of(Column.integer("bytes", null), Column.decimal("point-to-point trees", "ms", 2),
                    Column.decimal("multicast layer", "ms", 2), Column.text("carrier"));
            MulticastSource counters = new MulticastSource(dashboard, "WORLD", layered);
            MulticastFigures published = MulticastFigures.NONE;
            try (MulticastSource.Publishing live = counters.publishEvery(worlds.get(0).context().owner(), LIVE_PERIOD)) {
                for (int bytes : SIZES) {
                    Buffer message = Buffer.buffer(new byte[bytes]);
                    time(trees, message);
                    time(layered, message); // warm-up of both, untimed
                    double[] treeMs = new double[TIMED];
                    double[] layerMs = new double[TIMED];
                    for (int i = 0; i < TIMED; i++) {
                        treeMs[i] = time(trees, message);
                        layerMs[i] = time(layered, message);
                    }
                    Carrier carrier = path.costModel().map(model -> model.choose(bytes)).orElse(Carrier.MULTICAST);
                    table.row(bytes, median(treeMs), median(layerMs),
                            carrier == Carrier.MULTICAST ? "multicast" : "pipelined tree (auto)");
                    published = (MulticastFigures) await.apply(counters.publish());
                }
            }
            out.print(table.render());
            JsonObject totals = published.toJson(Optional.empty()).getJsonObject("totals");
            out.printf(Locale.ROOT, "multicast counters (the dashboard's Multicast view, /api/multicast): %d bcasts by"
                    + " multicast, %d by the tree, %d retransmissions, %d ACKs received%n", totals.getLong("multicast_bcasts"),
                    totals.getLong("tree_bcasts"), totals.getLong("retransmissions"), totals.getLong("acks_received"));
            out.println();
        } finally {
            layered.forEach(collectives -> collectives.broadcastPath().close());
            wire.close();
            out.flush();
        }
    }

    /** One bcast from rank 0 on every member: ms from the start until the last member has the message. */
    private double time(List<Collectives> members, Buffer message) {
        long start = System.nanoTime();
        List<Future<Buffer>> calls = new ArrayList<>();
        for (Collectives member : members) {
            calls.add(member.bcast(member.rank() == 0 ? message : null, 0));
        }
        long[] last = {start};
        List<Future<Buffer>> checked = calls.stream().map(call -> call.andThen(done -> {
            synchronized (last) {
                last[0] = Math.max(last[0], System.nanoTime());
            }
        })).toList();
        await.apply(Future.all(checked));
        for (Future<Buffer> call : calls) {
            if (call.result().length() != message.length()) {
                throw new IllegalStateException("a bcast of " + message.length() + " bytes delivered "
                        + call.result().length());
            }
        }
        synchronized (last) {
            return (last[0] - start) / 1e6;
        }
    }

    private static double median(double[] samples) {
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
