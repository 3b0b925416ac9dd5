package dev.canopy.collectives.internal.segmentation;

import dev.canopy.topology.internal.tree.SegmentPolicy;

/**
 * Chooses the segment size for pipelining a message down a tree from the cost model.
 *
 * <p>Sending M bytes as k segments down a tree of depth d, store-and-forward, with per-message
 * overhead o and bandwidth B costs about d·L + (d + k − 1)(o + M/(kB)). Its minimum over k is at
 * k* = sqrt((d − 1)·M / (B·o)); the segment is M/k*, clamped to [{@code minimumSegmentBytes},
 * M]. A depth of 1 (flat tree) gains nothing from pipelining: one segment.
 *
 * <p>As a {@link SegmentPolicy} it tells the topology's cost model how the runtime cuts messages, so
 * predictions pipeline as the runtime does.
 */
public final class PipelineSegmenter implements SegmentPolicy {

    private final double overheadSeconds;
    private final double bytesPerSecond;
    private final int minimumSegmentBytes;

    public PipelineSegmenter(double overheadSeconds, double bytesPerSecond, int minimumSegmentBytes) {
        if (!(overheadSeconds > 0) || !(bytesPerSecond > 0) || minimumSegmentBytes < 1) {
            throw new IllegalArgumentException("pipeline cost needs overhead > 0 s, bandwidth > 0 B/s and a minimum"
                    + " segment >= 1 B; got " + overheadSeconds + ", " + bytesPerSecond + ", " + minimumSegmentBytes);
        }
        this.overheadSeconds = overheadSeconds;
        this.bytesPerSecond = bytesPerSecond;
        this.minimumSegmentBytes = minimumSegmentBytes;
    }

    /** No pipelining: every message goes in one piece, whatever its size (to measure what pipelining gains). */
    public static PipelineSegmenter wholeMessages() {
        return new PipelineSegmenter(50e-6, 125e6, Integer.MAX_VALUE);
    }

    /** The segment size in bytes for a message of {@code bytes} down a tree of {@code depth} hops. */
    public int segmentBytes(int bytes, int depth) {
        if (bytes <= minimumSegmentBytes || depth <= 1) {
            return Math.max(1, bytes);
        }
        double segments = Math.sqrt((depth - 1) * (double) bytes / (bytesPerSecond * overheadSeconds));
        long size = (long) Math.ceil(bytes / Math.max(1, segments));
        return (int) Math.max(minimumSegmentBytes, Math.min(bytes, size));
    }

    @Override
    public int segmentBytes(long bytes, int depth) {
        return segmentBytes((int) Math.min(Integer.MAX_VALUE, bytes), depth);
    }

    /** The predicted time of the pipelined transfer, in seconds, excluding the d·L latency term. */
    public double predictedSeconds(int bytes, int depth) {
        int segment = segmentBytes(bytes, depth);
        int segments = Math.max(1, (bytes + segment - 1) / segment);
        return (depth + segments - 1) * (overheadSeconds + segment / bytesPerSecond);
    }
}
