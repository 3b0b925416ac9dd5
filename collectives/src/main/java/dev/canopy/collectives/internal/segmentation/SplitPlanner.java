package dev.canopy.collectives.internal.segmentation;

/**
 * The model-based splitting rules of segmentation.md, given calibrated thresholds:
 * a gather of M in [M1, M2] becomes m gathers of M/m with a barrier before each, where m is the
 * smallest count with M/m < M1; a scatter of M >= S becomes m scatters with M/m < S; anything
 * else runs as one operation.
 */
public final class SplitPlanner {

    private final SegmentationThresholds thresholds;

    public SplitPlanner(SegmentationThresholds thresholds) {
        this.thresholds = thresholds;
    }

    public Split gather(long bytesPerProcess) {
        return thresholds.gatherEscalation()
                .filter(range -> range.contains(bytesPerProcess))
                .map(range -> new Split(partsBelow(bytesPerProcess, range.firstBytes()), Split.Synchronisation.BARRIER_BEFORE_EACH))
                .orElse(Split.WHOLE);
    }

    public Split scatter(long bytesPerProcess) {
        if (thresholds.scatterLeapBytes().isPresent() && bytesPerProcess >= thresholds.scatterLeapBytes().getAsLong()) {
            return new Split(partsBelow(bytesPerProcess, thresholds.scatterLeapBytes().getAsLong()), Split.Synchronisation.NONE);
        }
        return Split.WHOLE;
    }

    /** The smallest m with bytes / m < limit (so bytes / (m - 1) >= limit). */
    static int partsBelow(long bytes, long limit) {
        return Math.toIntExact(bytes / limit + 1);
    }
}
