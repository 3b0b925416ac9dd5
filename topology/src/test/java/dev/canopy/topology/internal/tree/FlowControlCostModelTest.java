package dev.canopy.topology.internal.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.topology.internal.ThinUplinkGrids;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The runtime's flow control in the prediction: credit window, fetch-ahead room, rendezvous round trips, chunks. */
class FlowControlCostModelTest {

    private static final double L = 10;

    private static double completionMs(CostModel cost, int nodes) {
        LatencyMatrix matrix = TestMatrices.uniform(nodes, L);
        Tree star = new FlatTreeBuilder().build(matrix, 0, cost).orElseThrow();
        return cost.predict(star, matrix).completionMs();
    }

    @Test
    void beyondTheWindowAStreamCarriesTheFetchAheadRoomPerRoundTrip() {
        // window 4000 B eager at once; the rest announced, fetched 2000 B at a time, each a request and a body later
        FlowControl flow = new FlowControl(4000, 2000, 1_000_000, 1_000_000, 0);
        CostModel cost = new CostModel(0, 0, 0, 8000).withSegments((bytes, depth) -> 500).withFlow(flow);
        assertThat(completionMs(cost, 2)).as("window at L, then 2000 B by 3L and 5L").isCloseTo(5 * L, within(1e-9));
        assertThat(completionMs(cost.withMessageBytes(4000), 2)).as("within the window: one latency")
                .isCloseTo(L, within(1e-9));
    }

    @Test
    void chunksLargerThanTheFetchRoomCostARoundTripEachAfterTheOneBefore() {
        FlowControl flow = new FlowControl(1_000_000, 500, 500, 1000, 0);
        CostModel cost = new CostModel(0, 0, 0, 3000).withFlow(flow);
        // each chunk: announced (L), asked once the one before arrived (then L back), body (L)
        assertThat(completionMs(cost, 2)).isCloseTo(7 * L, within(1e-9));
    }

    @Test
    void aStreamWhoseRoundTripIsNoLongerThanItsSendsIsNotHeldBack() {
        // each 500 B segment takes its sender 1 ms, a round trip 1 ms: beyond the window of two segments each body is
        // asked for when the one before arrived and leaves as its sender gets to it
        FlowControl flow = new FlowControl(1000, 0, 1_000_000, 1_000_000, 0);
        CostModel free = new CostModel(1, 0, 0, 3000).withSegments((bytes, depth) -> 500);
        double unlimited = completionMs(free, 2);
        LatencyMatrix near = TestMatrices.uniform(2, 0.5);
        Tree edge = new FlatTreeBuilder().build(near, 0, free).orElseThrow();
        assertThat(free.withFlow(flow).predict(edge, near).completionMs())
                .isCloseTo(free.predict(edge, near).completionMs(), within(1e-9));
        assertThat(unlimited).isCloseTo(6 + L, within(1e-9));
    }

    @Property(tries = 40)
    void aMessageWithinTheWindowIsPredictedAsWithoutFlowControl(@ForAll @IntRange(min = 2, max = 12) int nodes,
            @ForAll @IntRange(min = 1, max = 1000) int kilobytes) {
        FlowControl flow = new FlowControl(1 << 20, 1 << 19, 1 << 20, 4 << 20, 272);
        CostModel cost = new CostModel(0.02, 0, 1e-6, kilobytes * 1000L)
                .withBandwidths(ThinUplinkGrids.uniformUplinks(200))
                .withSegments((bytes, depth) -> 64 << 10);
        assertThat(completionMs(cost.withFlow(flow), nodes)).isCloseTo(completionMs(cost, nodes), within(1e-9));
    }

    @Test
    void aWindowFarBelowTheBandwidthDelayProductSetsThePace() {
        // 16 MB over 1 Gb/s takes 128 ms on the wire; 1 MB eager and 1 MB fetched ahead per 20 ms round trip take
        // about 15 round trips
        FlowControl flow = new FlowControl(1_000_000, 1_000_000, 1_000_000, 4_000_000, 0);
        CostModel cost = new CostModel(0, 0, 0, 16_000_000).withBandwidths(ThinUplinkGrids.uniformUplinks(1000))
                .withSegments((bytes, depth) -> 250_000);
        double windowed = completionMs(cost.withFlow(flow), 2);
        assertThat(completionMs(cost, 2)).isCloseTo(128 + L, within(1e-6));
        assertThat(windowed).isGreaterThan(15 * 2 * L);
    }

    @Test
    void processesSharingAMachineFinishNoEarlierThanTheirWorkOverItsCores() {
        // a star of 8 children, each send 1 ms: the root's sends take 8 ms; with the receives, 16 ms of work
        CostModel cost = new CostModel(1, 0, 0, 1000);
        LatencyMatrix near = TestMatrices.uniform(9, 0);
        Tree star = new FlatTreeBuilder().build(near, 0, cost).orElseThrow();
        assertThat(cost.predict(star, near).completionMs()).isCloseTo(8, within(1e-9));
        assertThat(cost.withSharedCores(1).predict(star, near).completionMs()).as("16 ms of work on one core")
                .isCloseTo(16, within(1e-9));
        assertThat(cost.withSharedCores(4).predict(star, near).completionMs()).as("the root's own sends bound it")
                .isCloseTo(8, within(1e-9));
        assertThat(completionMs(cost.withSharedCores(1), 9)).as("a 10 ms latency hides the work")
                .isCloseTo(8 + L, within(1e-9));
    }

    @Test
    void theRootDecidesWhenItSubmitsItsSegmentsNotWhenItGetsToWriteThem() {
        // all 8 segments submitted at 0: 4 eager within the window, 4 by rendezvous, though the credit of the first
        // comes back (2L + 1 ms) before the sender, at 10 ms a segment, gets to the fifth
        FlowControl flow = new FlowControl(2000, 0, 1_000_000, 1_000_000, 0);
        CostModel slow = new CostModel(10, 0, 0, 4000).withSegments((bytes, depth) -> 500);
        double unlimited = completionMs(slow, 2);
        assertThat(unlimited).isCloseTo(80 + L, within(1e-9));
        // segment 5 is asked for once segment 4 arrived (40 + L), arrives 2L later; each next one 2L after that
        assertThat(completionMs(slow.withFlow(flow), 2)).isCloseTo(40 + L + 4 * 2 * L, within(1e-9));
    }

    @Test
    void badFlowControlIsRefusedNamingEveryValue() {
        assertThatThrownBy(() -> new FlowControl(0, 0, 0, 1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("window >= 1 B").hasMessageContaining("got 0, 0, 0, 1, 0");
    }
}
