package dev.canopy.collectives.internal.segmentation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The gather's planning rule: inside [M1, M2] the pieces in flight at once (window x piece) stay within the burst
 * budget, senders x M1 / 2, that the calibration saw the root's port absorb; a piece is at most half of it.
 */
class SplitPlannerTest {

    private static final int KB = 1024;

    private static SplitPlanner calibrated(long m1, long m2, int senders) {
        return new SplitPlanner(new SegmentationThresholds(OptionalLong.empty(),
                Optional.of(new EscalationRange(m1, m2).observedWith(senders))));
    }

    private static long piece(long bytes, GatherSplit split) {
        return (bytes + split.parts() - 1) / split.parts();
    }

    @Test
    void theBurstInFlightStaysWithinHalfWhatEscalatedInTheCalibration() {
        SplitPlanner planner = calibrated(8 * KB, 256 * KB, 15);
        long budget = 15L * 8 * KB / 2;
        for (long bytes = 8 * KB; bytes <= 256 * KB; bytes += 3 * KB) {
            GatherSplit split = planner.gather(bytes, 15);
            assertThat(split.window() * piece(bytes, split)).as("window x piece at %d B", bytes).isLessThanOrEqualTo(budget);
            assertThat(piece(bytes, split)).as("piece at %d B", bytes).isLessThanOrEqualTo(budget / 2);
            assertThat(split.window()).as("window at %d B", bytes).isBetween(2, 15);
        }
    }

    @Test
    void theFewestEvenPiecesThatFitAndAsManyInFlightAsTheBudgetHolds() {
        SplitPlanner planner = calibrated(8 * KB, 256 * KB, 15);
        // budget 60 KiB: pieces up to 30 KiB
        assertThat(planner.gather(8 * KB, 15)).isEqualTo(new GatherSplit(1, 7));
        assertThat(planner.gather(16 * KB, 15)).isEqualTo(new GatherSplit(1, 3));
        assertThat(planner.gather(32 * KB, 15)).isEqualTo(new GatherSplit(2, 3));
        assertThat(planner.gather(256 * KB, 15)).isEqualTo(new GatherSplit(9, 2));
    }

    @Test
    void theBudgetComesFromTheSendersOfTheCalibrationNotOfTheGather() {
        GatherSplit fewSenders = calibrated(8 * KB, 256 * KB, 3).gather(64 * KB, 15);
        GatherSplit manySenders = calibrated(8 * KB, 256 * KB, 15).gather(64 * KB, 15);
        assertThat(fewSenders.window() * piece(64 * KB, fewSenders)).isLessThanOrEqualTo(3L * 8 * KB / 2);
        assertThat(fewSenders.parts()).isGreaterThan(manySenders.parts());
    }

    @Test
    void withoutARecordedSenderCountTheGathersOwnIsTaken() {
        SplitPlanner unknown = new SplitPlanner(new SegmentationThresholds(OptionalLong.empty(),
                Optional.of(new EscalationRange(8 * KB, 256 * KB))));
        assertThat(unknown.gather(128 * KB, 15)).isEqualTo(calibrated(8 * KB, 256 * KB, 15).gather(128 * KB, 15));
    }

    @Test
    void theWindowNeverExceedsTheSenders() {
        assertThat(calibrated(8 * KB, 256 * KB, 15).gather(8 * KB, 3).window()).isEqualTo(3);
        assertThat(calibrated(8 * KB, 256 * KB, 15).gather(8 * KB, 0).window()).isEqualTo(1);
    }

    @Test
    void tinyThresholdsOrHugeMessagesStayWithinTheCollectivesSteps() {
        GatherSplit tiny = calibrated(1, 1L << 40, 1).gather(1L << 30, 1);
        assertThat(tiny.parts()).isEqualTo(GatherSplit.MAX_PARTS);
        assertThat(tiny.window()).isEqualTo(1);
        GatherSplit huge = calibrated(Long.MAX_VALUE / 2, Long.MAX_VALUE, 1000).gather(Long.MAX_VALUE / 2, 1000);
        assertThat(huge.parts()).isEqualTo(1);
    }

    @Test
    void aStoredSenderCountMustBeAPositiveProcessCount() {
        assertThatThrownBy(() -> SegmentationThresholds.fromJson(new JsonObject().put("M1", 1).put("M2", 2)
                .put("M_senders", 0))).hasMessageContaining("M_senders").hasMessageContaining("positive process count");
        assertThatThrownBy(() -> SegmentationThresholds.fromJson(new JsonObject().put("M_senders", 4)))
                .hasMessageContaining("belongs to M1 and M2");
    }
}
