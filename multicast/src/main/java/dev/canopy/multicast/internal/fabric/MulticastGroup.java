package dev.canopy.multicast.internal.fabric;

import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * A multicast group of a fabric, named by a number (a communicator's context id, say); each fabric maps
 * it to its own addressing (a multicast LID, an IPv4 group address in 239.0.0.0/8, ...).
 *
 * <p>A group leased through ZooKeeper ({@code dev.canopy.multicast.internal.groups}) also carries the address and
 * port leased for it, which no other group of any job holds meanwhile; two groups are the same group only
 * if number and address are equal, so two jobs whose groups have the same number never meet on a fabric.
 *
 * @param address the leased IPv4 group address (in 239.0.0.0/8) and port; empty for an unleased group
 */
public record MulticastGroup(int id, Optional<InetSocketAddress> address) {

    public MulticastGroup {
        if (id < 0) {
            throw new IllegalArgumentException("multicast group id " + id + " must be 0 or more");
        }
        Objects.requireNonNull(address, "address");
        address.ifPresent(leased -> {
            if (leased.isUnresolved() || !(leased.getAddress() instanceof Inet4Address ipv4)
                    || (ipv4.getAddress()[0] & 0xFF) != 239) {
                throw new IllegalArgumentException("multicast group " + id + " address " + leased
                        + " must be an IPv4 address in 239.0.0.0/8 (administratively scoped)");
            }
        });
    }

    /** A group without a leased address. */
    public MulticastGroup(int id) {
        this(id, Optional.empty());
    }

    /** Group {@code id} on the leased {@code address}. */
    public static MulticastGroup leased(int id, InetSocketAddress address) {
        return new MulticastGroup(id, Optional.of(address));
    }
}
