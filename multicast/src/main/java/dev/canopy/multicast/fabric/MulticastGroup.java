package dev.canopy.multicast.fabric;

/**
 * A multicast group of a fabric, named by a number (a communicator's context id, say); each fabric maps
 * it to its own addressing (a multicast LID, an IPv4 group address in 239.0.0.0/8, ...).
 */
public record MulticastGroup(int id) {

    public MulticastGroup {
        if (id < 0) {
            throw new IllegalArgumentException("multicast group id " + id + " must be 0 or more");
        }
    }
}
