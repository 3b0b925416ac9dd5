package dev.canopy.multicast.internal.reliable;

import dev.canopy.core.comm.RankFailedException;

/**
 * What membership and the failure detector call when a rank of the communicator has failed (core
 * builds the {@link RankFailedException} with the rank, node id and reason for its communicators).
 * May be called from any thread, more than once.
 */
@FunctionalInterface
public interface MemberFailureListener {

    void rankFailed(RankFailedException failure);
}
