package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.CollectiveFailedException;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.grid.SyntheticLatencies;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.ThreadDelayScheduler;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.Algorithm;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A member's node closes while the others stream multicast bcasts through plain {@code Collectives.bcast}: the
 * communicator's failure reaches the substrate through the link's receive loop, and every survivor's bcast
 * fails (no hang) with a {@link CollectiveFailedException} naming the dead communicator rank.
 */
class MulticastFailureTest {

    private static final java.util.Map<Integer, Long> DONE = new java.util.concurrent.ConcurrentSkipListMap<>();
    private static final int SIZE = 6;
    private static final int VICTIM = 3;
    /** Membership reports a closed node's leave at once; a generous bound for the loaded machine. */
    private static final long FAILURE_DEADLINE_SECONDS = 30;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everySurvivorFailsNamingTheDeadRank() throws Exception {
        // The survivors stream bcasts of 3000 bytes (two fragments) from root 0 while rank 3 closes.
        ThreadDelayScheduler wire = new ThreadDelayScheduler("emulated-ud-wire");
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.faulty(0.02, 0, 100_000, 11),
                NanoClock.SYSTEM, wire);
        dev.canopy.gridconfig.model.LevelAlgorithms levels = dev.canopy.gridconfig.model.LevelAlgorithms.DEFAULTS
                .with(Level.LAN, Algorithm.BINOMIAL).with(Level.CLUSTER, Algorithm.FABRIC_MULTICAST);
        try (LocalGrid grid = LocalGrid.start("mcast-failure", SIZE,
                i -> new Coordinates("w", "s", "lan", "c", "h" + i))) {
            List<Future<Collectives>> opening = new ArrayList<>();
            for (Communicator world : grid.world()) {
                Collectives collectives = new Collectives(world, plan(world), CollectiveSettings.defaults());
                opening.add(BroadcastLayers.plugInto(collectives, levels, MulticastFabrics.inProcess(fabric),
                        MulticastOptions.DEFAULTS));
            }
            List<Collectives> layers = opening.stream().map(LocalGrid::await).toList();
            assertThat(layers.get(0).broadcastPath().description())
                    .isEqualTo("multicast (emulated-ud) in 1 cluster group(s)");
            for (int rank = 0; rank < SIZE; rank++) {
                assertThat(LocalGrid.await(layers.get(rank).bcast(Buffer.buffer("before"), 0)))
                        .isEqualTo(Buffer.buffer("before"));
            }
            AtomicBoolean stop = new AtomicBoolean();
            List<Future<Throwable>> survivors = new ArrayList<>();
            for (int rank = 0; rank < SIZE; rank++) {
                if (rank != VICTIM) {
                    Promise<Throwable> failed = Promise.promise();
                    streamUntilFailure(layers.get(rank), rank, stop, failed);
                    survivors.add(failed.future());
                }
            }
            LocalGrid.await(grid.nodeOfRank(VICTIM).close());
            for (Future<Throwable> survivor : survivors) {
                Throwable failure;
                try {
                    failure = survivor.toCompletionStage().toCompletableFuture().get(FAILURE_DEADLINE_SECONDS,
                            TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    stop.set(true);
                    throw new AssertionError("a survivor still broadcasts " + FAILURE_DEADLINE_SECONDS
                            + " s after rank " + VICTIM + " closed; bcasts done by rank: " + DONE, e);
                }
                assertThat(failure).isInstanceOf(CollectiveFailedException.class);
                assertThat(((CollectiveFailedException) failure).failedRank()).as(failure.getMessage())
                        .hasValue(VICTIM);
                assertThat(failure).hasMessageContaining("rank " + VICTIM);
            }
        } finally {
            wire.close();
        }
    }

    /** bcasts from root 0 one after another until one fails (completes {@code failed} with the cause) or stop. */
    private static void streamUntilFailure(Collectives layer, int rank, AtomicBoolean stop,
            Promise<Throwable> failed) {
        if (stop.get()) {
            return;
        }
        layer.bcast(rank == 0 ? Buffer.buffer(new byte[3000]) : Buffer.buffer(), 0).onComplete(result -> {
            if (result.failed()) {
                failed.complete(result.cause());
            } else {
                DONE.merge(rank, 1L, Long::sum);
                streamUntilFailure(layer, rank, stop, failed);
            }
        });
    }

    private static TopologyPlan plan(Communicator communicator) {
        return new TopologyPlan(communicator.members(),
                new HierarchicalPlanner(LevelAlgorithms.everywhere(TreeAlgorithm.BINOMIAL), ConfiguredPlans.COST),
                new SyntheticLatencies(communicator.members()), 1);
    }
}
