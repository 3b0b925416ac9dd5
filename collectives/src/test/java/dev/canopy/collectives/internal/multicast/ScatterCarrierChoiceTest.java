package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.internal.segmentation.PipelineSegmenter;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ScatterCarrierChoiceTest {

    /** Groups of 8, a 60 us multicast flight, 25 us one-way, 1 GbE-like pipeline, 1500-byte MTU. */
    private static final BroadcastCostModel MODEL = BroadcastCostModel.measured(60, 1500,
            new PipelineSegmenter(20e-6, 125e6, 8192), 25, 8);

    @Test
    void byNameEveryScatterThatFitsTheSubstrateIsPacked() {
        ScatterCarrierChoice byName = new ScatterCarrierChoice(Optional.empty(), 1 << 20);
        assertThat(byName.packs(0, 8)).isTrue();
        assertThat(byName.packs(100_000, 8)).isTrue();
        assertThat(byName.packs((1 << 20) / 8, 8)).as("the header pushes it over the limit").isFalse();
        assertThat(byName.packs(-1, 8)).as("an unknown size is not a piece size").isFalse();
    }

    @Test
    void autoPacksSmallPiecesAndSendsLargeOnesDownTheTreeWithTheCrossoverFallingAsMembersGrow() {
        ScatterCarrierChoice auto = new ScatterCarrierChoice(Optional.of(MODEL), 256 << 20);
        assertThat(auto.packs(8, 8)).isTrue();
        assertThat(auto.packs(1 << 20, 8)).isFalse();
        long eight = auto.crossoverBytes(8);
        long sixtyFour = auto.crossoverBytes(64);
        assertThat(eight).as("crossover for 8 members").isBetween(64L, 1L << 20);
        assertThat(sixtyFour).as("crossover for 64 members").isPositive().isLessThanOrEqualTo(eight);
        // Monotone: once the tree wins, it wins for every larger piece.
        for (long bytes = eight; bytes <= 1 << 24; bytes <<= 1) {
            assertThat(auto.packs(bytes, 8)).as("%d bytes per receiver", bytes).isFalse();
        }
        assertThat(ScatterCarrierChoice.treeScatterMicros(MODEL, 1000, 8))
                .isLessThan(ScatterCarrierChoice.treeScatterMicros(MODEL, 100_000, 8));
    }
}
