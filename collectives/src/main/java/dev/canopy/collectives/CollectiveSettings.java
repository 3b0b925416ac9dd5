package dev.canopy.collectives;

import dev.canopy.collectives.segmentation.PipelineSegmenter;
import dev.canopy.collectives.segmentation.SegmentationThresholds;
import dev.canopy.collectives.segmentation.SplitPlanner;
import java.util.Objects;

/**
 * Tuning every member of a communicator must share: how large messages are cut for pipelining,
 * the calibrated scatter/gather thresholds (segmentation.md), when rooted collectives complete and
 * how alltoall(v) routes its blocks.
 */
public record CollectiveSettings(PipelineSegmenter pipeline, SegmentationThresholds thresholds, Completion completion,
        AllToAllRoute allToAllRoute) {

    public CollectiveSettings {
        Objects.requireNonNull(allToAllRoute, "allToAllRoute");
    }

    /**
     * Pipelining for a 1 Gb/s network with 50 µs per message, segments of at least 8 KiB; no thresholds;
     * MPI's local completion; alltoall(v) through the site coordinators across sites.
     */
    public static CollectiveSettings defaults() {
        return new CollectiveSettings(new PipelineSegmenter(50e-6, 125e6, 8192), SegmentationThresholds.NONE,
                Completion.LOCAL, AllToAllRoute.AUTO);
    }

    public CollectiveSettings withThresholds(SegmentationThresholds calibrated) {
        return new CollectiveSettings(pipeline, calibrated, completion, allToAllRoute);
    }

    public CollectiveSettings withCompletion(Completion newCompletion) {
        return new CollectiveSettings(pipeline, thresholds, newCompletion, allToAllRoute);
    }

    public CollectiveSettings withAllToAllRoute(AllToAllRoute route) {
        return new CollectiveSettings(pipeline, thresholds, completion, route);
    }

    SplitPlanner splitPlanner() {
        return new SplitPlanner(thresholds);
    }
}
