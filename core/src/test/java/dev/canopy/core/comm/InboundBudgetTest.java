package dev.canopy.core.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The receiver's side of the flow control: what a peer may hold, and when its credit goes back. */
class InboundBudgetTest {

    private static final MessageLimits LIMITS = new MessageLimits(1 << 20, 2 << 20, 16 << 10);

    private final List<String> grants = new ArrayList<>();
    /** Three nodes: this one and two peers, each with a 1 MiB window. */
    private final InboundBudget budget = new InboundBudget(3, LIMITS, (peer, bytes) -> grants.add(peer + ":" + bytes));

    @Test
    void theFirstFrameOfAPeerTopsItsCreditUpToTheWindowAndNothingBeyondTheWindowIsAdmitted() {
        assertThat(budget.window()).isEqualTo(1 << 20);
        assertThat(budget.admit(1, 1000)).isTrue();
        assertThat(grants).containsExactly("1:" + ((1 << 20) - FlowProtocol.INITIAL_CREDIT));
        assertThat(budget.admit(1, (1 << 20) - 1000)).isTrue();
        assertThat(budget.admit(1, 1)).as("one byte beyond the window").isFalse();
        assertThat(budget.admit(2, 1)).as("another peer has its own window").isTrue();
        assertThat(budget.held(1)).isEqualTo(1 << 20);
        assertThat(budget.heldTotal()).isEqualTo((1 << 20) + 1);
        assertThat(budget.highWaterPerPeer()).isEqualTo(1 << 20);
    }

    @Test
    void beforeItsFirstFrameAPeerMayHoldOnlyTheInitialCredit() {
        assertThat(budget.admit(1, FlowProtocol.INITIAL_CREDIT + 1)).isFalse();
        assertThat(grants).isEmpty();
    }

    @Test
    void consumedBytesGoBackInGrantsOfAnEighthOfTheWindow() {
        budget.admit(2, 250 << 10);
        grants.clear();
        budget.release(2, 100 << 10);
        assertThat(grants).as("100 KiB is less than an eighth of 1 MiB").isEmpty();
        budget.release(2, 100 << 10);
        assertThat(grants).containsExactly("2:" + (200 << 10));
        assertThat(budget.held(2)).isEqualTo(50 << 10);
        assertThat(budget.admit(2, (1 << 20) - (50 << 10))).as("what was given back is room").isTrue();
        assertThat(budget.admit(2, 1)).isFalse();
    }
}
