package dev.canopy.collectives.internal.segmentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SegmentationMathTest {

    private static final long KB = 1024;

    @Test
    void leapIsFoundWhereScatterStopsOverlapping() {
        List<TimingSample> samples = new ArrayList<>();
        Random random = new Random(42);
        for (long size = 1 * KB; size <= 1024 * KB; size *= 2) {
            double perByte = size >= 64 * KB ? 16 * 0.00001 : 0.00001; // 16 receivers serialise above S
            for (int i = 0; i < 9; i++) {
                samples.add(new TimingSample(size, 0.2 + size * perByte * (1 + 0.05 * random.nextDouble())));
            }
        }
        assertThat(new LeapDetector(1.8).detect(SizeTimeCurve.of(samples))).isEqualTo(OptionalLong.of(64 * KB));
    }

    @Test
    void linearCurveHasNoLeap() {
        List<TimingSample> samples = new ArrayList<>();
        for (long size = 1 * KB; size <= 1024 * KB; size *= 2) {
            samples.add(new TimingSample(size, 0.5 + size * 0.0001));
        }
        assertThat(new LeapDetector(1.8).detect(SizeTimeCurve.of(samples))).isEmpty();
    }

    @Test
    void escalationRegionIsTheSizesWithFrequentHighLevels() {
        List<TimingSample> samples = new ArrayList<>();
        Random random = new Random(7);
        for (long size = 1 * KB; size <= 256 * KB; size *= 2) {
            for (int i = 0; i < 40; i++) {
                double linear = 0.3 + size * 0.00002;
                boolean escalates = size >= 8 * KB && size <= 64 * KB && random.nextDouble() < 0.3;
                samples.add(new TimingSample(size, escalates ? linear + 200 : linear * (1 + 0.1 * random.nextDouble())));
            }
        }
        assertThat(new EscalationDetector(2, 1, 0.1).detect(SizeTimeCurve.of(samples)))
                .contains(new EscalationRange(8 * KB, 64 * KB));
    }

    @Test
    void noisyButLevelGatherHasNoEscalation() {
        List<TimingSample> samples = new ArrayList<>();
        Random random = new Random(3);
        for (long size = 1 * KB; size <= 256 * KB; size *= 2) {
            for (int i = 0; i < 40; i++) {
                samples.add(new TimingSample(size, (1 + size * 0.00002) * (1 + 0.3 * random.nextDouble())));
            }
        }
        assertThat(new EscalationDetector(2, 1, 0.1).detect(SizeTimeCurve.of(samples))).isEmpty();
    }

    @Test
    void scattersSplitBelowTheLeapAndGathersOutsideTheRangeRunWhole() {
        SplitPlanner planner = new SplitPlanner(new SegmentationThresholds(OptionalLong.of(64 * KB),
                Optional.of(new EscalationRange(5 * KB, 64 * KB))));
        assertThat(planner.gather(4 * KB, 15)).isEqualTo(GatherSplit.WHOLE);
        assertThat(planner.gather(128 * KB, 15)).isEqualTo(GatherSplit.WHOLE);
        assertThat(planner.scatter(32 * KB)).isEqualTo(Split.WHOLE);
        Split large = planner.scatter(200 * KB);
        assertThat(200 * KB / large.parts()).isLessThan(64 * KB);
        assertThat(200 * KB / (large.parts() - 1)).isGreaterThanOrEqualTo(64 * KB);
        assertThat(new SplitPlanner(SegmentationThresholds.NONE).scatter(1 << 30)).isEqualTo(Split.WHOLE);
        assertThat(new SplitPlanner(SegmentationThresholds.NONE).gather(8 * KB, 15)).isEqualTo(GatherSplit.WHOLE);
    }

    @Test
    void thresholdsSurviveJson() {
        SegmentationThresholds thresholds = new SegmentationThresholds(OptionalLong.of(65536),
                Optional.of(new EscalationRange(5120, 65536)));
        assertThat(SegmentationThresholds.fromJson(thresholds.toJson())).isEqualTo(thresholds);
        SegmentationThresholds withSenders = new SegmentationThresholds(OptionalLong.empty(),
                Optional.of(new EscalationRange(5120, 65536).observedWith(15)));
        assertThat(SegmentationThresholds.fromJson(withSenders.toJson())).isEqualTo(withSenders);
        assertThat(SegmentationThresholds.fromJson(SegmentationThresholds.NONE.toJson())).isEqualTo(SegmentationThresholds.NONE);
    }

    @Test
    void pipelineSegmentsShrinkWithDepthAndStayWithinBounds() {
        PipelineSegmenter segmenter = new PipelineSegmenter(50e-6, 100e6, 4096);
        assertThat(segmenter.segmentBytes(1000, 5)).isEqualTo(1000);
        assertThat(segmenter.segmentBytes(4 << 20, 1)).isEqualTo(4 << 20);
        int shallow = segmenter.segmentBytes(4 << 20, 2);
        int deep = segmenter.segmentBytes(4 << 20, 8);
        assertThat(deep).isLessThan(shallow).isGreaterThanOrEqualTo(4096);
        assertThat(segmenter.predictedSeconds(4 << 20, 8)).isLessThan(new PipelineSegmenter(50e-6, 100e6, 4 << 20)
                .predictedSeconds(4 << 20, 8));
    }
}
