package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.multicast.internal.fabric.Fabric;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.fabric.MulticastProbe;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.simulation.SimulatedLoop;
import dev.canopy.multicast.internal.simulation.Simulation;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fabric's round trip as auto's cost model gets it, on simulated time (no sleeping). */
@Timeout(30)
class FabricEchoTest {

    private static final MulticastGroup GROUP = new MulticastGroup(9);
    private static final long FLIGHT_NANOS = 200_000;

    @Test
    void theFirstMemberMeasuresTwiceTheFlightOthersReportNothing() {
        List<Future<OptionalDouble>> echoes = probeThenEcho(EmulatedUdOptions.faulty(0, FLIGHT_NANOS, 0, 1), 4, 0);
        assertThat(echoes.get(0).result()).hasValueCloseTo(2 * FLIGHT_NANOS / 1e3, Offset.offset(1.0));
        for (int rank = 1; rank < 4; rank++) {
            assertThat(echoes.get(rank).result()).isEmpty();
        }
    }

    @Test
    void lostPingsAndLateRespondersAreSentAgain() {
        // 30 % of copies lost, and every responder starts echoing 3 ms after the pinger: PINGs are re-sent.
        List<Future<OptionalDouble>> echoes = probeThenEcho(EmulatedUdOptions.faulty(0.3, FLIGHT_NANOS, 0, 7), 4,
                3_000_000);
        assertThat(echoes.get(0).result()).isPresent();
        assertThat(echoes.get(0).result().getAsDouble()).as("a round trip is two flights, at least")
                .isGreaterThanOrEqualTo(2 * FLIGHT_NANOS / 1e3);
    }

    @Test
    void nobodyAnsweringGivesNoMeasurement() {
        Simulation simulation = new Simulation();
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.perfect(), simulation, simulation.wire());
        SimulatedLoop loop = simulation.newLoop("alone");
        Fabric endpoint = fabric.attach("alone", loop);
        endpoint.join(GROUP);
        Future<OptionalDouble> echo = FabricEcho.run(endpoint, GROUP, 5, 0, loop, Duration.ofMillis(50));
        simulation.runUntil(echo::isComplete, Long.MAX_VALUE);
        assertThat(echo.result()).isEmpty();
    }

    /** Every member probes, then echoes (rank 0 pings); responders start {@code lateNanos} after their probe. */
    private static List<Future<OptionalDouble>> probeThenEcho(EmulatedUdOptions options, int size, long lateNanos) {
        Simulation simulation = new Simulation();
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(options, simulation, simulation.wire());
        List<Future<OptionalDouble>> echoes = new ArrayList<>();
        for (int rank = 0; rank < size; rank++) {
            SimulatedLoop loop = simulation.newLoop("member-" + rank);
            Fabric endpoint = fabric.attach("member-" + rank, loop);
            int local = rank;
            echoes.add(MulticastProbe.run(endpoint, GROUP, 42, rank, size, loop, Duration.ofMillis(2), 4)
                    .compose(probed -> {
                        if (local == 0 || lateNanos == 0) {
                            return FabricEcho.run(endpoint, GROUP, 42, local, loop, Duration.ofMillis(300));
                        }
                        Promise<OptionalDouble> later = Promise.promise();
                        loop.schedule(lateNanos, () -> FabricEcho.run(endpoint, GROUP, 42, local, loop,
                                Duration.ofMillis(300)).onComplete(later));
                        return later.future();
                    }));
        }
        simulation.runUntil(() -> echoes.stream().allMatch(Future::isComplete), Long.MAX_VALUE);
        return echoes;
    }
}
