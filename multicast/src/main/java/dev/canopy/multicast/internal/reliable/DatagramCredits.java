package dev.canopy.multicast.internal.reliable;

/**
 * A root's credits counted in datagrams, as the hardware model counts them: a credit is a receive buffer a
 * receiver keeps posted for this root, and one datagram, a lone DATA or a BATCH of many packets, takes one.
 * Receivers report ({@link CreditLedger}) the packet sequence below which everything that reached them has
 * arrived, plus their {@code buffers} posted buffers. Datagrams leave in sequence order, so every datagram that
 * ends at or below the lowest such point has been consumed (or lost on the fabric, which holds no buffer); each
 * later one may still hold a buffer. A new datagram may leave while fewer than {@code buffers} may. Every member
 * posts the same {@code creditsPerRoot}, so the root can take the buffers back out of a report. Owner loop only.
 */
final class DatagramCredits {

    private final CreditLedger ledger;
    private final int buffers;
    private final long[] ends; // ring: the end sequence (exclusive) of each datagram that may hold a buffer
    private int head;
    private int count;

    DatagramCredits(int[] reporting, int buffers) {
        this.ledger = new CreditLedger(reporting, buffers);
        this.buffers = buffers;
        this.ends = new long[buffers];
    }

    /** Returns whether {@code member} reports to this root (its report is then taken). */
    boolean update(int member, long creditLimit) {
        return ledger.update(member, creditLimit);
    }

    /** Whether one more datagram may leave now. */
    boolean available() {
        long limit = ledger.limit();
        if (limit == Long.MAX_VALUE) { // nobody receives: nothing holds a buffer
            count = 0;
            return true;
        }
        long seen = limit - buffers;
        while (count > 0 && ends[head] <= seen) {
            head = (head + 1) % buffers;
            count--;
        }
        return count < buffers;
    }

    /** A datagram whose packets end (exclusive) at {@code end} left; call only when {@link #available()}. */
    void spend(long end) {
        ends[(head + count) % buffers] = end;
        count++;
    }
}
