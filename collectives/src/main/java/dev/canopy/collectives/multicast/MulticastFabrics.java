package dev.canopy.collectives.multicast;

import dev.canopy.multicast.fabric.emulated.EmulatedUdSwitch;
import java.util.Optional;

/**
 * The multicast fabrics this process can offer its members. IP multicast ({@code udp}) is always
 * tried where the level file asks for {@code multicast} (and the probe decides). A cluster fabric
 * for {@code fabric-multicast} exists only as the in-process {@code emulated-ud} switch, which serves
 * the members of one JVM ({@code canopy demo}, {@code canopy bench}, tests); no verbs fabric is
 * implemented, so a job spread over processes falls back to the point-to-point trees there.
 */
public record MulticastFabrics(Optional<EmulatedUdSwitch> emulatedSwitch) {

    /** A process of a real job: IP multicast only. */
    public static MulticastFabrics ipOnly() {
        return new MulticastFabrics(Optional.empty());
    }

    /** Members in this JVM sharing {@code emulatedSwitch} as their cluster fabric. */
    public static MulticastFabrics inProcess(EmulatedUdSwitch emulatedSwitch) {
        return new MulticastFabrics(Optional.of(emulatedSwitch));
    }
}
