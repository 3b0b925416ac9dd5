package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.engine.BroadcastPath;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.ThreadDelayScheduler;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Measures, on this machine, the packed multicast scatter against the tree scatter per piece size, and a persistent
 * bcast's start against a plain bcast of the same bytes (in-process nodes, emulated-ud, no loss), printing a table;
 * the numbers behind docs/collectives.md's "Multicast scatter and persistent requests". Slow and noisy: exhaustive.
 */
@Tag("exhaustive")
class ScatterCrossoverMeasurementTest {

    private static final String CLUSTER = """
            +
            ( &(type = grid) (name = "scatter-measure") (levels = (lan binomial) (cluster fabric_multicast)) )
            ( &(type = subjob) (label = "c") (count = 8) )
            """;
    private static final int REPEATS = 15;

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void multicastScatterAgainstTheTreeScatterPerPieceSize() {
        GridModel grid = GridConfigs.parse(CLUSTER, "scatter-measure.rsl").orElseThrow();
        ThreadDelayScheduler wire = new ThreadDelayScheduler("emulated-ud-wire");
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.perfect(), NanoClock.SYSTEM, wire);
        try (EmulatedGrid job = EmulatedGrid.start(grid, "scatter-measure", 1)) {
            List<Future<Collectives>> opening = new ArrayList<>();
            for (Communicator member : job.world()) {
                opening.add(BroadcastLayers.plugInto(new Collectives(member, ConfiguredPlans.of(member.members(), grid),
                        CollectiveSettings.defaults()), grid.levels(), MulticastFabrics.emulated(fabric),
                        MulticastOptions.DEFAULTS));
            }
            List<Collectives> multicast = opening.stream().map(Blocking::await).toList();
            List<Collectives> trees = multicast.stream()
                    .map(member -> member.withBroadcastPath(BroadcastPath.pointToPoint())).toList();
            int n = multicast.size();
            System.out.printf(Locale.ROOT, "scatter among %d members, median of %d (ms)%n%8s %10s %10s %14s %12s%n", n,
                    REPEATS, "bytes/rx", "multicast", "tree", "persist.bcast", "plain bcast");
            for (int piece : new int[] {16, 64, 256, 1024, 4096, 16_384, 65_536}) {
                Buffer all = Buffer.buffer(new byte[piece * n]);
                double packed = median(() -> run(multicast, piece, m -> m.scatter(m.rank() == 0 ? all : null, piece, 0)));
                double tree = median(() -> run(trees, piece, m -> m.scatter(m.rank() == 0 ? all : null, piece, 0)));
                double plain = median(() -> run(multicast, all.length(), m -> m.bcast(m.rank() == 0 ? all : null, 0)));
                List<PersistentRequest> requests = multicast.stream().map(m -> m.bcastInit(all.length(), 0)).toList()
                        .stream().map(Blocking::await).toList();
                double persistent = median(() -> {
                    List<Future<Buffer>> calls = new ArrayList<>();
                    for (int rank = 0; rank < n; rank++) {
                        calls.add(requests.get(rank).start(rank == 0 ? all : null));
                    }
                    calls.forEach(call -> assertThat(Blocking.await(call).length()).isEqualTo(all.length()));
                });
                System.out.printf(Locale.ROOT, "%8d %10.2f %10.2f %14.2f %12.2f%n", piece, packed, tree, persistent, plain);
            }
            MulticastPath path = (MulticastPath) multicast.get(0).broadcastPath();
            ScatterCarrierChoice model = new ScatterCarrierChoice(Optional.of(BroadcastCostModel.measured(50,
                    EmulatedUdOptions.perfect().mtu(), CollectiveSettings.defaults().pipeline(), 25, n)), 256 << 20);
            System.out.printf(Locale.ROOT, "auto's crossover (T_mc 50 us, one-way 25 us, %d members): %d bytes per receiver;"
                    + " path: %s%n", n, model.crossoverBytes(n), path.description());
            multicast.forEach(member -> member.broadcastPath().close());
        } finally {
            wire.close();
        }
    }

    /** One collective on every member, each result checked to have {@code bytes} bytes. */
    private static void run(List<Collectives> members, int bytes, Function<Collectives, Future<Buffer>> call) {
        members.stream().map(call).toList().forEach(result -> assertThat(Blocking.await(result).length()).isEqualTo(bytes));
    }

    private static double median(Runnable round) {
        double[] ms = new double[REPEATS];
        round.run(); // warm-up
        for (int i = 0; i < REPEATS; i++) {
            long start = System.nanoTime();
            round.run();
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(ms);
        return ms[REPEATS / 2];
    }
}
