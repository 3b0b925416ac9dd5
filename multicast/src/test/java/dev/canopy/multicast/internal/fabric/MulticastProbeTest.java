package dev.canopy.multicast.internal.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.simulation.SimulatedLoop;
import dev.canopy.multicast.internal.simulation.Simulation;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class MulticastProbeTest {

    private static final MulticastGroup GROUP = new MulticastGroup(3);

    @Test
    void everyMemberHearsEveryOtherOnAWorkingFabricEvenWithLoss() {
        List<Future<MulticastProbe.Result>> results = probe(EmulatedUdOptions.faulty(0.2, 2_000, 10_000, 5), 6, -1);
        for (Future<MulticastProbe.Result> result : results) {
            assertThat(result.result().works()).as("%s", result.result()).isTrue();
        }
    }

    @Test
    void aMemberWhoseMulticastNeverArrivesIsNamed() {
        // Rank 4 never joins the group (as behind a filtering switch): everyone else names it, and it hears nobody.
        List<Future<MulticastProbe.Result>> results = probe(EmulatedUdOptions.perfect(), 5, 4);
        for (int rank = 0; rank < 4; rank++) {
            assertThat(results.get(rank).result().missing()).containsExactly(4);
            assertThat(results.get(rank).result().toString()).contains("heard nothing from rank(s) [4]");
        }
    }

    @Test
    void foreignJobsAreNotHeard() {
        Simulation simulation = new Simulation();
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.perfect(), simulation, simulation.wire());
        SimulatedLoop a = simulation.newLoop("a");
        SimulatedLoop b = simulation.newLoop("b");
        Future<MulticastProbe.Result> first = MulticastProbe.run(fabric.attach("a", a), GROUP, 1, 0, 2, a,
                Duration.ofMillis(1), 3);
        MulticastProbe.run(fabric.attach("b", b), GROUP, 2, 1, 2, b, Duration.ofMillis(1), 3);
        simulation.runUntil(first::isComplete, Long.MAX_VALUE);
        assertThat(first.result().missing()).containsExactly(1);
    }

    private static List<Future<MulticastProbe.Result>> probe(EmulatedUdOptions options, int size, int absent) {
        Simulation simulation = new Simulation();
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(options, simulation, simulation.wire());
        List<Future<MulticastProbe.Result>> results = new ArrayList<>();
        for (int rank = 0; rank < size; rank++) {
            SimulatedLoop loop = simulation.newLoop("member-" + rank);
            Fabric endpoint = fabric.attach("member-" + rank, loop);
            results.add(rank == absent ? Future.succeededFuture()
                    : MulticastProbe.run(endpoint, GROUP, 42, rank, size, loop, Duration.ofMillis(1), 5));
        }
        simulation.runUntil(() -> results.stream().allMatch(Future::isComplete), Long.MAX_VALUE);
        return results;
    }
}
