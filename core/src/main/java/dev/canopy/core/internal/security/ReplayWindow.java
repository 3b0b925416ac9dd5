package dev.canopy.core.internal.security;

/**
 * Which sequence numbers of one sender were already accepted (IPsec style): the highest accepted and a
 * bitmap of the {@value #SIZE} before it. A number above the highest moves the window; one inside it is
 * accepted once; one below it is refused as too old. Datagrams reordered by less than the window are
 * accepted; duplicates and replays are not.
 *
 * <p>Not thread-safe: owned by the transport's context.
 */
public final class ReplayWindow {

    public static final int SIZE = 1024;

    private final long[] seen = new long[SIZE / 64];
    private long highest = Long.MIN_VALUE;

    /** Accepts {@code sequence} (and remembers it) unless it was seen before or is older than the window. */
    public boolean accept(long sequence) {
        if (highest == Long.MIN_VALUE || sequence > highest) {
            advanceTo(sequence);
            mark(sequence);
            return true;
        }
        long age = highest - sequence;
        if (age >= SIZE || age < 0 || isMarked(sequence)) {
            return false;
        }
        mark(sequence);
        return true;
    }

    private void advanceTo(long sequence) {
        long shift = highest == Long.MIN_VALUE ? SIZE : sequence - highest;
        if (shift >= SIZE || shift < 0) {
            java.util.Arrays.fill(seen, 0);
        } else {
            for (long s = highest + 1; s <= sequence; s++) {
                clear(s);
            }
        }
        highest = sequence;
    }

    private int bit(long sequence) {
        return (int) Math.floorMod(sequence, (long) SIZE);
    }

    private boolean isMarked(long sequence) {
        int bit = bit(sequence);
        return (seen[bit >>> 6] & (1L << (bit & 63))) != 0;
    }

    private void mark(long sequence) {
        int bit = bit(sequence);
        seen[bit >>> 6] |= 1L << (bit & 63);
    }

    private void clear(long sequence) {
        int bit = bit(sequence);
        seen[bit >>> 6] &= ~(1L << (bit & 63));
    }
}
