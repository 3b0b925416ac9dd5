package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.collectives.data.ValueCodec;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The calibration's reduction of its runs to a model, on given samples (the runs themselves: GroupCollectivesTest). */
class PolicyCalibrationTest {

    @Test
    void aStepIsTheInterquartileMeanOfItsRunsSoOutliersEitherWayDoNotMoveIt() {
        double[] runs = {1_000, 1_010, 990, 1_005, 995, 50_000_000, 1_000, 0, 1_002};
        assertThat(PolicyCalibration.estimate(runs)).isCloseTo(1_000, offset(10.0));
        assertThat(PolicyCalibration.estimate(new double[] {7})).isEqualTo(7);
    }

    @Test
    void theModelIsTheLineThroughBothSizesOfEachPolicyAtBothTargetCounts() {
        int few = 5;
        int many = 20;
        // static, dynamic, tree (small then large) at 5 targets, then at 20: the tree's fixed part grows with targets.
        double[] micros = {200, 2_000, 4_000, 6_000, 100, 8_000, 210, 6_000, 5_000, 9_000, 400, 40_000};
        double[][] samples = new double[micros.length][PolicyCalibration.RUNS];
        for (int step = 0; step < micros.length; step++) {
            Arrays.fill(samples[step], micros[step]);
            samples[step][3] = micros[step] * 50; // one run slowed by the machine's other work
        }
        PolicyCostModel model = PolicyCalibration.model(few, many, samples);
        CallShape small = CallShape.scatter(few, PolicyCalibration.SMALL_BYTES);
        CallShape large = CallShape.scatter(few, PolicyCalibration.LARGE_BYTES);
        assertThat(model.micros(GroupPolicy.STATIC, small)).isCloseTo(200, offset(0.5));
        assertThat(model.micros(GroupPolicy.STATIC, large)).isCloseTo(2_000, offset(0.5));
        assertThat(model.micros(GroupPolicy.TREE, small)).isCloseTo(100, offset(0.5));
        assertThat(model.micros(GroupPolicy.TREE, CallShape.scatter(many, PolicyCalibration.SMALL_BYTES)))
                .isCloseTo(400, offset(0.5));
        assertThat(model.choose(small)).isEqualTo(GroupPolicy.TREE);
        assertThat(model.choose(large)).isEqualTo(GroupPolicy.STATIC);
        assertThat(model.choose(CallShape.scatter(many, PolicyCalibration.SMALL_BYTES))).isEqualTo(GroupPolicy.STATIC);
        assertThat(model.chooseRequest(large)).isEqualTo(GroupPolicy.PERSISTENT);
        assertThat(model.chooseAllgather(few + 1, PolicyCalibration.SMALL_BYTES)).isEqualTo(GroupPolicy.TREE);
    }

    @Test
    void aRunCostsWhatItsSlowestMemberTookAndAMalformedReportNamesTheRank() {
        int steps = PolicyCalibration.steps(1);
        double[] root = new double[steps * PolicyCalibration.RUNS];
        double[] target = new double[steps * PolicyCalibration.RUNS];
        Arrays.fill(root, 10);
        Arrays.fill(target, 30);
        target[0] = 5;
        double[][] slowest = PolicyCalibration.slowest(List.of(ValueCodec.encode(root), ValueCodec.encode(target)), steps);
        assertThat(slowest[0][0]).isEqualTo(10);
        assertThat(slowest[0][1]).isEqualTo(30);
        target[1] = -1;
        assertThatThrownBy(() -> PolicyCalibration.slowest(List.of(ValueCodec.encode(root), ValueCodec.encode(target)),
                steps)).isInstanceOf(MalformedMessageException.class).hasMessageContaining("rank 1");
        assertThatThrownBy(() -> PolicyCalibration.slowest(List.of(ValueCodec.encode(new double[3])), steps))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("rank 0");
    }
}
