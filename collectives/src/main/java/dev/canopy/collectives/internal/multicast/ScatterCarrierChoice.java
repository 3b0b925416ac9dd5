package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.internal.segmentation.PipelineSegmenter;
import java.util.Optional;

/**
 * Whether a scatter goes as one packed multicast ({@link PackedScatter}) or down the plan's point-to-point tree
 * scatter: the one place that decides, for a communicator whose bcast multicasts ({@link MulticastPath}).
 *
 * <ul>
 *   <li>By name ({@code multicast}, {@code fabric_multicast}): packed whenever the packed message fits the
 *       substrate's {@code maxMessageBytes}.</li>
 *   <li>{@code auto}: packed when the {@link BroadcastCostModel}'s multicast of the whole packed message
 *       ({@code n} pieces of {@code b} bytes plus the header) costs no more than the tree scatter inside a group,
 *       {@code d (L + o) + (n - 1) b / B}: {@code d = ceil(log2 n)} hops, and the root pushing every other
 *       member's piece through its links at the pipeline's bandwidth {@code B} with per-message overhead
 *       {@code o} ({@link PipelineSegmenter#predictedSeconds} of {@code (n - 1) b} bytes over one hop). The
 *       multicast moves {@code n} times the bytes a receiver needs but in one flight, so it wins for small
 *       pieces; the crossover falls as {@code n} grows (see {@link #crossoverBytes}).</li>
 * </ul>
 *
 * The model is the same on every member (its measurements are agreed when the path opens), so every member
 * reaches the same answer for the same piece size.
 */
public record ScatterCarrierChoice(Optional<BroadcastCostModel> auto, int maxMessageBytes) {

    /** Whether {@code receivers} pieces of {@code bytesPerReceiver} bytes go as one packed multicast. */
    public boolean packs(long bytesPerReceiver, int receivers) {
        long packed = PackedScatter.headerBytes(receivers) + bytesPerReceiver * receivers;
        if (bytesPerReceiver < 0 || packed >= maxMessageBytes) {
            return false;
        }
        return auto.map(model -> multicastMicros(model, packed) <= treeScatterMicros(model, bytesPerReceiver, receivers))
                .orElse(true);
    }

    /** The smallest power-of-two piece size (1 byte to 1 GiB) that goes by the tree, or -1 if none does. */
    public long crossoverBytes(int receivers) {
        for (long bytes = 1; bytes <= 1L << 30; bytes <<= 1) {
            if (!packs(bytes, receivers)) {
                return bytes;
            }
        }
        return -1;
    }

    static double multicastMicros(BroadcastCostModel model, long packedBytes) {
        return model.multicastMicros((int) Math.min(Integer.MAX_VALUE, packedBytes));
    }

    static double treeScatterMicros(BroadcastCostModel model, long bytesPerReceiver, int receivers) {
        int depth = receivers <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(receivers - 1);
        long fromRoot = Math.min(Integer.MAX_VALUE, bytesPerReceiver * Math.max(0, receivers - 1));
        return depth * model.oneWayMicros() + depth * model.pipeline().predictedSeconds(0, 1) * 1e6
                + model.pipeline().predictedSeconds((int) fromRoot, 1) * 1e6;
    }
}
