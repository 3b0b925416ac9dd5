package dev.canopy.multicast.internal.reliable;

/**
 * The credit reports a root or co-root hears, per member: the packets a receiver has seen plus its posted
 * buffers for this root ({@link DatagramCredits} turns the lowest into datagrams a root may send),
 * reported with its ACKs (a co-root reports the lowest of its sub-group's). Limits only grow, so
 * reordered reports do no harm; a packet lost on the fabric never holds a credit, because the limit
 * counts from the packets the receiver has seen. Owner loop only.
 */
final class CreditLedger {

    private final int[] members;
    private final long[] limits;

    CreditLedger(int[] members, long initialLimit) {
        this.members = members.clone();
        this.limits = new long[members.length];
        java.util.Arrays.fill(limits, initialLimit);
    }

    /** Returns whether {@code member} is tracked here (its limit is then raised to {@code limit}). */
    boolean update(int member, long limit) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == member) {
                limits[i] = Math.max(limits[i], limit);
                return true;
            }
        }
        return false;
    }

    /** The lowest limit, or {@link Long#MAX_VALUE} when nobody is tracked. */
    long limit() {
        long min = Long.MAX_VALUE;
        for (long limit : limits) {
            min = Math.min(min, limit);
        }
        return min;
    }
}
