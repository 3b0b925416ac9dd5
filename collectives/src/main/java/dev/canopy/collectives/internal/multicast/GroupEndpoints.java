package dev.canopy.collectives.internal.multicast;

import dev.canopy.core.comm.Communicator;
import dev.canopy.multicast.internal.fabric.Fabric;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.fabric.udp.UdpFabricOptions;
import dev.canopy.multicast.internal.fabric.udp.UdpMulticastFabric;
import dev.canopy.multicast.internal.loop.VertxOwnerLoop;
import io.vertx.core.Future;
import java.net.InetAddress;

/**
 * Where a member's policy-managed groups get their fabric endpoints: one new endpoint per group (each group's
 * substrate owns its endpoint's receive handler), on the in-process {@code emulated-ud} switch or on real IPv4
 * multicast ({@code udp}) through one interface. Every member of a communicator must use the same kind.
 */
@FunctionalInterface
public interface GroupEndpoints {

    /** A new endpoint of this member, its receives handled on the communicator's context. */
    Future<Fabric> open(Communicator communicator);

    /** Which fabric, for descriptions and the benchmark's output. */
    default String kind() {
        return "custom";
    }

    /** Endpoints on {@code emulatedSwitch} (members in this JVM). */
    static GroupEndpoints emulated(EmulatedUdSwitch emulatedSwitch) {
        return new GroupEndpoints() {
            @Override
            public Future<Fabric> open(Communicator communicator) {
                return Future.succeededFuture(emulatedSwitch.attach("rank-" + communicator.rank(),
                        new VertxOwnerLoop(communicator.context().owner(), communicator.context())));
            }

            @Override
            public String kind() {
                return "emulated-ud";
            }
        };
    }

    /** IPv4 multicast on the interface with {@code interfaceAddress} (sockets opened off the event loop). */
    static GroupEndpoints udp(InetAddress interfaceAddress) {
        return new GroupEndpoints() {
            @Override
            public Future<Fabric> open(Communicator communicator) {
                return communicator.context().owner().executeBlocking(() -> UdpMulticastFabric.open(
                        UdpFabricOptions.on(interfaceAddress),
                        new VertxOwnerLoop(communicator.context().owner(), communicator.context())));
            }

            @Override
            public String kind() {
                return "udp";
            }
        };
    }
}
