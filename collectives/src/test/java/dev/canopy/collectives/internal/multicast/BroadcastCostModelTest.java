package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.internal.segmentation.PipelineSegmenter;
import org.junit.jupiter.api.Test;

/** {@code auto} at the LAN and cluster levels: multicast for small messages, the pipelined tree above a threshold. */
class BroadcastCostModelTest {

    private static final PipelineSegmenter PIPELINE = CollectiveSettings.defaults().pipeline();
    /** The emulated-ud fabric's MTU. */
    private static final int MTU = 1836;

    @Test
    void smallMessagesMulticastAndVeryLargeOnesTakeThePipelinedTree() {
        // A LAN of 8 with 0.5 ms one way (the level file's 1 ms threshold), a fabric flight of 50 us.
        BroadcastCostModel model = BroadcastCostModel.measured(50, MTU, PIPELINE, 500, 8);

        assertThat(model.choose(0)).isEqualTo(Carrier.MULTICAST);
        assertThat(model.choose(8)).isEqualTo(Carrier.MULTICAST);
        assertThat(model.choose(1024)).isEqualTo(Carrier.MULTICAST);
        assertThat(model.choose(64 << 20)).isEqualTo(Carrier.TREE);
        // One packet costs the single-root latency T_sr = 2 T_cc + T_ud + T_mc; a tree pays 3 hops of 0.5 ms.
        assertThat(model.multicastMicros(8)).isEqualTo(2 * 2 + 4 + 50);
        assertThat(model.treeMicros(8)).isGreaterThan(3 * 500);
        long threshold = model.firstTreeSize();
        assertThat(threshold).as(model.toString()).isGreaterThan(1024).isLessThanOrEqualTo(64L << 20);
        for (long bytes = threshold; bytes <= 256L << 20; bytes <<= 1) {
            assertThat(model.choose((int) Math.min(Integer.MAX_VALUE, bytes))).as("%d bytes, %s", bytes, model)
                    .isEqualTo(Carrier.TREE);
        }
        assertThat(model.toString()).contains("below about " + threshold + " bytes");
    }

    @Test
    void theMeasuredParametersMoveTheChoice() {
        // A slow fabric (10 ms flight) beside a fast LAN (10 us one way): even 8 bytes go by the tree.
        BroadcastCostModel slowFabric = BroadcastCostModel.measured(10_000, MTU, PIPELINE, 10, 8);
        assertThat(slowFabric.choose(8)).isEqualTo(Carrier.TREE);
        // A slower LAN keeps multicast ahead for larger messages than a faster one does.
        long fastLan = BroadcastCostModel.measured(50, MTU, PIPELINE, 50, 8).firstTreeSize();
        long slowLan = BroadcastCostModel.measured(50, MTU, PIPELINE, 5_000, 8).firstTreeSize();
        assertThat(slowLan).isGreaterThan(fastLan);
        // Larger groups: the tree gets deeper, a one-packet multicast does not get slower.
        BroadcastCostModel eight = BroadcastCostModel.measured(50, MTU, PIPELINE, 500, 8);
        BroadcastCostModel sixtyFour = BroadcastCostModel.measured(50, MTU, PIPELINE, 500, 64);
        assertThat(sixtyFour.treeMicros(8)).isGreaterThan(eight.treeMicros(8));
        assertThat(sixtyFour.multicastMicros(8)).isEqualTo(eight.multicastMicros(8));
    }

    @Test
    void everyChoiceIsTheCheaperPrediction() {
        BroadcastCostModel model = BroadcastCostModel.measured(120, 1472, PIPELINE, 250, 16);
        for (int bytes = 0; bytes < 4 << 20; bytes = bytes * 3 + 1) {
            Carrier expected = model.multicastMicros(bytes) <= model.treeMicros(bytes) ? Carrier.MULTICAST : Carrier.TREE;
            assertThat(model.choose(bytes)).as("%d bytes", bytes).isEqualTo(expected);
        }
    }
}
