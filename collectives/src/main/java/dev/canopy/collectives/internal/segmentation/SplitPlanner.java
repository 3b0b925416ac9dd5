package dev.canopy.collectives.internal.segmentation;

/**
 * The model-based splitting rules of segmentation.md, given calibrated thresholds.
 *
 * <p>A scatter of M >= S becomes m scatters with M/m < S (m - 1 would not be); anything below S runs as one.
 *
 * <p>A gather of M in [M1, M2] runs under a sender window instead of the note's barrier before each of m pieces
 * below M1: with n senders, every round of that method still sends n pieces of nearly M1 at once, the burst that
 * escalated in the calibration, so each round risks a timeout and m rounds risk m of them (docs/collectives.md).
 * What the calibration does tell is the burst the root's port absorbs: the senders it ran with times M1 escalated,
 * and the size below it (half of M1 on the calibrated doubling sizes) passed. So the burst budget is
 * {@code senders x M1 / 2}; a piece is at most half of it (two pieces in flight keep the port busy while the next
 * request travels), cut evenly from the block, and the window is as many pieces as the budget holds. Gathers
 * outside [M1, M2] run as one.
 */
public final class SplitPlanner {

    private final SegmentationThresholds thresholds;

    public SplitPlanner(SegmentationThresholds thresholds) {
        this.thresholds = thresholds;
    }

    /**
     * @param bytesPerProcess every sender's block
     * @param senders         the processes sending to the root (the communicator's size minus one); the calibration's
     *                        own count is used for the budget when the thresholds record it
     */
    public GatherSplit gather(long bytesPerProcess, int senders) {
        return thresholds.gatherEscalation()
                .filter(range -> range.contains(bytesPerProcess))
                .map(range -> windowed(bytesPerProcess, range, Math.max(1, senders)))
                .orElse(GatherSplit.WHOLE);
    }

    private static GatherSplit windowed(long bytes, EscalationRange range, int senders) {
        // in double: a stored M1 may be any positive long, and the budget only needs to saturate
        long budget = (long) Math.max(1, Math.min(Long.MAX_VALUE, range.senders().orElse(senders) * (double) range.firstBytes() / 2));
        long pieceLimit = Math.max(1, budget / 2);
        int parts = (int) Math.min(GatherSplit.MAX_PARTS, ceilDiv(bytes, pieceLimit));
        long piece = ceilDiv(bytes, parts);
        int window = (int) Math.max(1, Math.min(senders, budget / piece));
        return new GatherSplit(parts, window);
    }

    public Split scatter(long bytesPerProcess) {
        if (thresholds.scatterLeapBytes().isPresent() && bytesPerProcess >= thresholds.scatterLeapBytes().getAsLong()) {
            return new Split(partsBelow(bytesPerProcess, thresholds.scatterLeapBytes().getAsLong()));
        }
        return Split.WHOLE;
    }

    /** The smallest m with bytes / m < limit (so bytes / (m - 1) >= limit). */
    static int partsBelow(long bytes, long limit) {
        return Math.toIntExact(bytes / limit + 1);
    }

    private static long ceilDiv(long dividend, long divisor) {
        return (dividend + divisor - 1) / divisor;
    }
}
