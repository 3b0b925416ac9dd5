package dev.canopy.multicast.internal.fabric.emulated;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.fabric.SendOutcome;
import dev.canopy.multicast.internal.simulation.SimulatedLoop;
import dev.canopy.multicast.internal.simulation.Simulation;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class EmulatedUdFabricTest {

    private static final MulticastGroup GROUP = new MulticastGroup(1);

    private final Simulation simulation = new Simulation();

    @Test
    void theDefaultMtuIsTheDesignNotes1836UsableBytesOf2048() {
        EmulatedUdFabric endpoint = new EmulatedUdSwitch(EmulatedUdOptions.perfect(), simulation, simulation.wire())
                .attach("a", simulation.newLoop("a"));
        assertThat(endpoint.mtu()).isEqualTo(1836);
        assertThat(endpoint.kind()).isEqualTo("emulated-ud");
    }

    @Test
    void aDatagramReachesEveryOtherJoinedMemberIntoAPostedBufferButNeverItsSender() {
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.perfect(), simulation, simulation.wire());
        List<String> received = new ArrayList<>();
        List<EmulatedUdFabric> endpoints = new ArrayList<>();
        for (String name : List.of("a", "b", "c", "outsider")) {
            EmulatedUdFabric endpoint = fabric.attach(name, simulation.newLoop(name));
            endpoint.receiveHandler((group, datagram) -> received.add(name + ":" + datagram.remaining()));
            endpoint.postReceive(ByteBuffer.allocate(endpoint.mtu()));
            if (!name.equals("outsider")) {
                endpoint.join(GROUP);
            }
            endpoints.add(endpoint);
        }
        assertThat(endpoints.get(0).send(GROUP, ByteBuffer.allocate(100))).isEqualTo(SendOutcome.SENT);
        simulation.runUntil(() -> false, Long.MAX_VALUE);
        assertThat(received).containsExactlyInAnyOrder("b:100", "c:100");
        assertThat(endpoints.get(1).postedReceives()).isZero();
    }

    @Test
    void withoutAPostedBufferTheDatagramIsDropped() {
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.perfect(), simulation, simulation.wire());
        EmulatedUdFabric sender = fabric.attach("a", simulation.newLoop("a"));
        EmulatedUdFabric receiver = fabric.attach("b", simulation.newLoop("b"));
        List<Integer> received = new ArrayList<>();
        receiver.receiveHandler((group, datagram) -> received.add(datagram.remaining()));
        sender.join(GROUP);
        receiver.join(GROUP);
        receiver.postReceive(ByteBuffer.allocate(receiver.mtu()));
        for (int i = 0; i < 3; i++) {
            sender.send(GROUP, ByteBuffer.allocate(10 + i));
        }
        simulation.runUntil(() -> false, Long.MAX_VALUE);
        assertThat(received).containsExactly(10);
        assertThat(fabric.stats().droppedNoBuffer()).isEqualTo(2);
        assertThat(fabric.stats().delivered()).isEqualTo(1);
    }

    @Test
    void aBusyReceiverStillHasItsBuffersFilledAndSeesThemWhenItRuns() {
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.perfect(), simulation, simulation.wire());
        EmulatedUdFabric sender = fabric.attach("a", simulation.newLoop("a"));
        SimulatedLoop busy = simulation.newLoop("b");
        EmulatedUdFabric receiver = fabric.attach("b", busy);
        List<Long> seenAt = new ArrayList<>();
        receiver.receiveHandler((group, datagram) -> seenAt.add(simulation.nanoTime()));
        sender.join(GROUP);
        receiver.join(GROUP);
        receiver.postReceive(ByteBuffer.allocate(receiver.mtu()));
        busy.busyFor(1_000);
        sender.send(GROUP, ByteBuffer.allocate(1));
        sender.send(GROUP, ByteBuffer.allocate(1));
        simulation.runUntil(() -> false, Long.MAX_VALUE);
        assertThat(seenAt).containsExactly(1_000L);
        assertThat(fabric.stats().droppedNoBuffer()).isEqualTo(1);
    }

    @Test
    void sendsThatCannotGoOutAreOutcomesNotExceptions() {
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.perfect(), simulation, simulation.wire());
        EmulatedUdFabric endpoint = fabric.attach("a", simulation.newLoop("a"));
        assertThat(endpoint.send(GROUP, ByteBuffer.allocate(10))).isEqualTo(SendOutcome.NOT_JOINED);
        endpoint.join(GROUP);
        assertThat(endpoint.send(GROUP, ByteBuffer.allocate(endpoint.mtu() + 1))).isEqualTo(SendOutcome.TOO_LARGE);
        assertThat(endpoint.send(GROUP, ByteBuffer.allocate(endpoint.mtu()))).isEqualTo(SendOutcome.SENT);
        endpoint.close();
        assertThat(endpoint.send(GROUP, ByteBuffer.allocate(1))).isEqualTo(SendOutcome.CLOSED);
        assertThatThrownBy(() -> endpoint.postReceive(ByteBuffer.allocate(100)))
                .hasMessageContaining("datagrams are up to 1836 bytes");
    }

    @Test
    void faultsFollowTheirProbabilitiesAndTheSeed() {
        EmulatedUdStats first = runFaulty(11);
        assertThat(runFaulty(11)).isEqualTo(first);
        assertThat(runFaulty(12)).isNotEqualTo(first);
        assertThat(first.copies()).isEqualTo(20_000);
        assertThat(first.lost()).isBetween(1_700L, 2_300L);
        assertThat(first.duplicated()).isBetween(1_500L, 2_100L);
        assertThat(first.reordered()).isBetween(3_300L, 4_500L); // held-back originals and every duplicate
    }

    @Test
    void optionsAreCheckedOnce() {
        assertThatThrownBy(() -> new EmulatedUdOptions(2048, 212, 1.0, 0, 0, 0, 0, 1)).hasMessageContaining("loss 1.0");
        assertThatThrownBy(() -> new EmulatedUdOptions(100, 0, 0, 0, 0, 0, 0, 1)).hasMessageContaining("wireMtu 100");
        assertThatThrownBy(() -> new EmulatedUdOptions(2048, 2000, 0, 0, 0, 0, 0, 1))
                .hasMessageContaining("headerOverhead 2000");
    }

    private static EmulatedUdStats runFaulty(long seed) {
        Simulation simulation = new Simulation();
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.faulty(0.1, 1_000, 5_000, seed), simulation,
                simulation.wire());
        EmulatedUdFabric sender = fabric.attach("a", simulation.newLoop("a"));
        EmulatedUdFabric receiver = fabric.attach("b", simulation.newLoop("b"));
        receiver.receiveHandler((group, datagram) -> receiver.postReceive(datagram));
        sender.join(GROUP);
        receiver.join(GROUP);
        for (int i = 0; i < 64; i++) {
            receiver.postReceive(ByteBuffer.allocate(receiver.mtu()));
        }
        for (int i = 0; i < 20_000; i++) {
            sender.send(GROUP, ByteBuffer.allocate(8));
            simulation.runUntil(() -> false, simulation.nanoTime() + 10_000);
        }
        simulation.runUntil(() -> false, Long.MAX_VALUE);
        return fabric.stats();
    }
}
