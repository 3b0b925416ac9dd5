package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import dev.canopy.multicast.internal.groups.GroupPolicy;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The calibration's reduction of its runs to a model, on given samples (the runs themselves: GroupCollectivesTest). */
class PolicyCalibrationTest {

    @Test
    void aStepIsTheInterquartileMeanOfItsRunsSoOutliersEitherWayDoNotMoveIt() {
        long[] runs = {1_000, 1_010, 990, 1_005, 995, 50_000_000, 1_000, 0, 1_002};
        assertThat(PolicyCalibration.estimate(runs)).isCloseTo(1_000, offset(10.0));
        assertThat(PolicyCalibration.estimate(new long[] {7})).isEqualTo(7);
    }

    @Test
    void theModelIsTheLineThroughBothSizesOfEachPolicy() {
        int k = 5;
        long[][] samples = new long[6][PolicyCalibration.RUNS];
        long[] micros = {200, 2_000, 4_000, 6_000, 100, 8_000}; // static, dynamic, tree: small then large
        for (int step = 0; step < 6; step++) {
            Arrays.fill(samples[step], micros[step] * 1_000);
            samples[step][3] = micros[step] * 1_000 * 50; // one run slowed by the machine's other work
        }
        PolicyCostModel model = PolicyCalibration.model(k, samples);
        assertThat(model.micros(GroupPolicy.STATIC, k, PolicyCalibration.SMALL_BYTES)).isCloseTo(200, offset(0.5));
        assertThat(model.micros(GroupPolicy.STATIC, k, PolicyCalibration.LARGE_BYTES)).isCloseTo(2_000, offset(0.5));
        assertThat(model.micros(GroupPolicy.TREE, k, PolicyCalibration.SMALL_BYTES)).isCloseTo(100, offset(0.5));
        assertThat(model.choose(k, PolicyCalibration.SMALL_BYTES)).isEqualTo(GroupPolicy.TREE);
        assertThat(model.choose(k, PolicyCalibration.LARGE_BYTES)).isEqualTo(GroupPolicy.STATIC);
        assertThat(model.chooseRequest(k, PolicyCalibration.LARGE_BYTES)).isEqualTo(GroupPolicy.PERSISTENT);
        assertThat(model.chooseAllgather(k + 1, PolicyCalibration.SMALL_BYTES)).isEqualTo(GroupPolicy.TREE);
    }
}
