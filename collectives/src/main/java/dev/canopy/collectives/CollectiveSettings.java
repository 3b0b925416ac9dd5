package dev.canopy.collectives;

import dev.canopy.collectives.segmentation.PipelineSegmenter;
import dev.canopy.collectives.segmentation.SegmentationThresholds;
import dev.canopy.collectives.segmentation.SplitPlanner;

/**
 * Tuning every member of a communicator must share: how large messages are cut for pipelining,
 * the calibrated scatter/gather thresholds (segmentation.md) and when rooted collectives complete.
 */
public record CollectiveSettings(PipelineSegmenter pipeline, SegmentationThresholds thresholds, Completion completion) {

    /**
     * Pipelining for a 1 Gb/s network with 50 µs per message, segments of at least 8 KiB; no thresholds;
     * MPI's local completion.
     */
    public static CollectiveSettings defaults() {
        return new CollectiveSettings(new PipelineSegmenter(50e-6, 125e6, 8192), SegmentationThresholds.NONE,
                Completion.LOCAL);
    }

    public CollectiveSettings withThresholds(SegmentationThresholds calibrated) {
        return new CollectiveSettings(pipeline, calibrated, completion);
    }

    public CollectiveSettings withCompletion(Completion newCompletion) {
        return new CollectiveSettings(pipeline, thresholds, newCompletion);
    }

    SplitPlanner splitPlanner() {
        return new SplitPlanner(thresholds);
    }
}
