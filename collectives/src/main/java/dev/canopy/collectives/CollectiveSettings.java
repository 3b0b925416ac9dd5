package dev.canopy.collectives;

import dev.canopy.collectives.internal.segmentation.PipelineSegmenter;
import dev.canopy.collectives.internal.segmentation.SegmentationThresholds;
import dev.canopy.collectives.internal.segmentation.SplitPlanner;
import java.util.Objects;

/**
 * Tuning every member of a communicator must share: how large messages are cut for pipelining,
 * the calibrated scatter/gather thresholds (segmentation.md), when rooted collectives complete and
 * how alltoall(v) routes its blocks.
 *
 * @param relayHopMs what one more hop costs an aggregate that {@link AllToAllRoute#RELAYED} sends
 *     through another site's coordinator, besides the link's latency: that coordinator receives the
 *     whole message, copies it and sends it on. A relay is taken only when it saves more than this
 *     per extra hop.
 */
public record CollectiveSettings(PipelineSegmenter pipeline, SegmentationThresholds thresholds, Completion completion,
        AllToAllRoute allToAllRoute, double relayHopMs) {

    /** Default {@link #relayHopMs()}: well above a message's overhead on a LAN, well below a WAN's latencies. */
    public static final double DEFAULT_RELAY_HOP_MS = 1.0;

    public CollectiveSettings {
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(allToAllRoute, "allToAllRoute");
        if (!(relayHopMs >= 0) || Double.isInfinite(relayHopMs)) {
            throw new IllegalArgumentException("relayHopMs must be a finite number of ms >= 0, got " + relayHopMs);
        }
    }

    /**
     * Pipelining for a 1 Gb/s network with 50 µs per message, segments of at least 8 KiB; no thresholds;
     * MPI's local completion; alltoall(v) through the site coordinators across sites, relayed where that
     * is faster, a relay hop costing {@value #DEFAULT_RELAY_HOP_MS} ms.
     */
    public static CollectiveSettings defaults() {
        return new CollectiveSettings(new PipelineSegmenter(50e-6, 125e6, 8192), SegmentationThresholds.NONE,
                Completion.LOCAL, AllToAllRoute.AUTO, DEFAULT_RELAY_HOP_MS);
    }

    /** Other pipelining, e.g. {@link PipelineSegmenter#wholeMessages()} to send every message in one piece. */
    public CollectiveSettings withPipeline(PipelineSegmenter otherPipeline) {
        return new CollectiveSettings(otherPipeline, thresholds, completion, allToAllRoute, relayHopMs);
    }

    public CollectiveSettings withThresholds(SegmentationThresholds calibrated) {
        return new CollectiveSettings(pipeline, calibrated, completion, allToAllRoute, relayHopMs);
    }

    public CollectiveSettings withCompletion(Completion newCompletion) {
        return new CollectiveSettings(pipeline, thresholds, newCompletion, allToAllRoute, relayHopMs);
    }

    public CollectiveSettings withAllToAllRoute(AllToAllRoute route) {
        return new CollectiveSettings(pipeline, thresholds, completion, route, relayHopMs);
    }

    public CollectiveSettings withRelayHopMs(double hopMs) {
        return new CollectiveSettings(pipeline, thresholds, completion, allToAllRoute, hopMs);
    }

    SplitPlanner splitPlanner() {
        return new SplitPlanner(thresholds);
    }
}
