package dev.canopy.collectives.internal.segmentation;

/**
 * How one gather runs: every sender's block cut into {@code parts} pieces, and at most {@code window} pieces
 * requested from the senders of one receiver at a time, each sender answering a request with its next piece.
 * {@link #WHOLE} is the native gather: every sender sends its block at once, nobody asks.
 */
public record GatherSplit(int parts, int window) {

    /** The most pieces per sender: a piece's request and answer each take one of the collective's 16-bit steps. */
    public static final int MAX_PARTS = 0xFFFF / 2;

    /** The native gather. */
    public static final GatherSplit WHOLE = new GatherSplit(1, Integer.MAX_VALUE);

    public GatherSplit {
        if (parts < 1 || parts > MAX_PARTS || window < 1) {
            throw new IllegalArgumentException("a gather splits into 1 to " + MAX_PARTS + " pieces per sender with a"
                    + " window of at least one, not " + parts + " pieces, window " + window);
        }
    }

    public boolean isWhole() {
        return equals(WHOLE);
    }
}
