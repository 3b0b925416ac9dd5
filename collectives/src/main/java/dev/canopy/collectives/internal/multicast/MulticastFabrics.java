package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.fabric.udp.UdpFabricOptions;
import dev.canopy.multicast.internal.groups.GroupAllocator;
import java.util.Optional;

/**
 * The multicast fabrics this process can offer its members; every member of a communicator must be given
 * the same kind (the selection relies on it). IP multicast ({@code udp}) serves {@code multicast} unless an
 * in-process switch stands in for it ({@link #emulated}). A cluster fabric for {@code fabric-multicast}
 * exists only as the in-process {@code emulated-ud} switch, which serves the members of one JVM
 * ({@code canopy demo}, {@code canopy bench}, tests); no verbs fabric is implemented, so a job spread over
 * processes falls back to the point-to-point trees there.
 *
 * @param cluster the switch serving {@code fabric-multicast}; empty: none here
 * @param ip      a switch standing in for IP multicast; empty: real IP multicast ({@code udp})
 * @param leases  where the leaf groups' addresses are leased ({@link LeafGroupAddress}); empty: unleased numbers
 *                (in-process switches only: real IP multicast of a job should always lease)
 * @param udpMtu  the largest datagram of the {@code udp} fabric ({@link UdpFabricOptions#mtu}): by default the
 *                largest UDP payload (not the fabric's own default of one Ethernet frame), so back-to-back bcasts
 *                share datagrams, which the kernel fragments (IP fragmentation), and a 64 KiB bcast takes 2
 *                datagrams instead of 46; {@link UdpFabricOptions#DEFAULT_MTU} keeps each within one frame, at the
 *                cost of one datagram per 1 KB bcast
 */
public record MulticastFabrics(Optional<EmulatedUdSwitch> cluster, Optional<EmulatedUdSwitch> ip,
                               Optional<GroupAllocator> leases, int udpMtu) {

    public MulticastFabrics {
        UdpFabricOptions.checkMtu(udpMtu);
    }

    /** A process of a real job: IP multicast only, every group's address and port leased through {@code leases}. */
    public static MulticastFabrics ipOnly(GroupAllocator leases) {
        return new MulticastFabrics(Optional.empty(), Optional.empty(), Optional.of(leases), UdpFabricOptions.MAX_MTU);
    }

    /** Members in this JVM sharing {@code emulatedSwitch} as their cluster fabric; IP multicast stays real. */
    public static MulticastFabrics inProcess(EmulatedUdSwitch emulatedSwitch) {
        return new MulticastFabrics(Optional.of(emulatedSwitch), Optional.empty(), Optional.empty(),
                UdpFabricOptions.MAX_MTU);
    }

    /**
     * An emulated grid in one JVM ({@code canopy demo}): {@code emulatedSwitch} serves the cluster level and
     * stands in for IP multicast at the LAN level, which cannot leave loopback here.
     */
    public static MulticastFabrics emulated(EmulatedUdSwitch emulatedSwitch) {
        return new MulticastFabrics(Optional.of(emulatedSwitch), Optional.of(emulatedSwitch), Optional.empty(),
                UdpFabricOptions.MAX_MTU);
    }

    /** The same fabrics with {@code mtu}-byte datagrams on {@code udp}. */
    public MulticastFabrics withUdpMtu(int mtu) {
        return new MulticastFabrics(cluster, ip, leases, mtu);
    }

    /** The in-process switch for {@code kind}, if one serves it. */
    Optional<EmulatedUdSwitch> emulatedFor(LevelChoices.FabricKind kind) {
        return kind == LevelChoices.FabricKind.CLUSTER ? cluster : ip;
    }
}
