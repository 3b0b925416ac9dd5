package dev.canopy.multicast.internal.reliable;

/**
 * Whose packets these are: the job (core's 64-bit job key, {@code Frame.jobId(name)}) and the
 * communicator's context id. Both travel in every packet, so two jobs that meet on one multicast group
 * (every job's WORLD has context 1) never take each other's packets.
 */
public record CommunicatorId(long job, int context) {

    @Override
    public String toString() {
        return "context " + context + " of job " + Long.toHexString(job);
    }
}
