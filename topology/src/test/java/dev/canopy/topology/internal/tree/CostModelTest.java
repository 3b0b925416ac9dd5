package dev.canopy.topology.internal.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.List;
import org.junit.jupiter.api.Test;

class CostModelTest {

    // root r sends to a (latency 10) then b (latency 4); a sends to c (latency 1)
    private final LatencyMatrix matrix = LatencyMatrix.ofRowMajor(List.of("r", "a", "b", "c"), new double[] {
        0, 10, 4, 50,
        10, 0, 7, 1,
        4, 7, 0, 9,
        50, 1, 9, 0});
    private final Tree tree = new Tree("hand", matrix.nodes(), 0, new int[][] {{1, 2}, {3}, {}, {}});

    @Test
    void latencyOnlyAddsLinkLatenciesAlongThePath() {
        Prediction prediction = CostModel.LATENCY_ONLY.predict(tree, matrix);
        assertThat(prediction.arrivalMs()).containsExactly(
                java.util.Map.entry("r", 0.0), java.util.Map.entry("a", 10.0),
                java.util.Map.entry("b", 4.0), java.util.Map.entry("c", 11.0));
        assertThat(prediction.completionMs()).isEqualTo(11.0);
    }

    @Test
    void theKthChildWaitsForKSends() {
        Prediction prediction = new CostModel(2, 0, 0, 0).predict(tree, matrix);
        assertThat(prediction.arrivalMs().get("a")).isEqualTo(0 + 1 * 2 + 10.0);
        assertThat(prediction.arrivalMs().get("b")).isEqualTo(0 + 2 * 2 + 4.0);
        assertThat(prediction.arrivalMs().get("c")).isEqualTo(12 + 1 * 2 + 1.0);
        assertThat(prediction.completionMs()).isEqualTo(15.0);
    }

    @Test
    void messageBytesCostPerByteAndTheGapBoundsTheSendRate() {
        CostModel perByte = new CostModel(1, 0, 0.001, 2000);
        assertThat(perByte.sendCostMs()).isEqualTo(3.0);
        assertThat(perByte.predict(tree, matrix).arrivalMs().get("b")).isCloseTo(2 * 3 + 4.0, within(1e-12));
        CostModel gapBound = new CostModel(1, 5, 0.001, 2000);
        assertThat(gapBound.sendCostMs()).isEqualTo(5.0);
        assertThat(perByte.withMessageBytes(0).sendCostMs()).isEqualTo(1.0);
    }

    @Test
    void aCoordinatorsEarlierSendsDelayItsFirstSendInAFinerTree() {
        double[] arrivals = new CostModel(2, 0, 0, 0).arrivalsMs(tree, matrix, 100, 3);
        assertThat(arrivals[0]).isEqualTo(100.0);
        assertThat(arrivals[1]).isEqualTo(100 + (3 + 1) * 2 + 10.0);
    }

    @Test
    void anUnmeasuredTreeLinkMakesTheArrivalInfinite() {
        double inf = Double.POSITIVE_INFINITY;
        LatencyMatrix holes = LatencyMatrix.ofRowMajor(matrix.nodes(), new double[] {
            0, inf, 4, 50, 10, 0, 7, 1, 4, 7, 0, 9, 50, 1, 9, 0});
        assertThat(CostModel.LATENCY_ONLY.predict(tree, holes).completionMs()).isEqualTo(inf);
    }

    @Test
    void rejectsNegativeOrNonFiniteParameters() {
        assertThatThrownBy(() -> new CostModel(-1, 0, 0, 0)).hasMessageContaining("overheadMs");
        assertThatThrownBy(() -> new CostModel(0, Double.NaN, 0, 0)).hasMessageContaining("gapMs");
        assertThatThrownBy(() -> new CostModel(0, 0, 0, -5)).hasMessageContaining("messageBytes");
    }

    @Test
    void rejectsATreeOverOtherNodes() {
        LatencyMatrix other = LatencyMatrix.ofRowMajor(List.of("x", "y", "z", "w"), new double[16]);
        assertThatThrownBy(() -> CostModel.LATENCY_ONLY.predict(tree, other)).hasMessageContaining("same node list");
    }
}
