package dev.canopy.multicast.internal.groups;

import dev.canopy.multicast.internal.fabric.MulticastGroup;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Objects;

/**
 * A multicast group of a job and the address and port leased for it: no other group, of this job or
 * another, holds them while the lease lasts.
 */
public record GroupLease(GroupKey key, InetSocketAddress address, LeaseRole role) {

    public GroupLease {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(role, "role");
    }

    /** The fabric's group: number {@code id} (the communicator's context, say) on the leased address. */
    public MulticastGroup group(int id) {
        return MulticastGroup.leased(id, address);
    }

    @Override
    public String toString() {
        return "group " + key + " on " + address.getAddress().getHostAddress() + ":" + address.getPort() + " ("
                + role.name().toLowerCase(Locale.ROOT) + ")";
    }
}
