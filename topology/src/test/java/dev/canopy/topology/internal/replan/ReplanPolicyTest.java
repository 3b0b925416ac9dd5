package dev.canopy.topology.internal.replan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ReplanPolicyTest {

    private final ReplanPolicy policy = new ReplanPolicy(0.10, 0.05, 2, 1.0);

    @Test
    void replansOnlyAfterTheImprovementIsConfirmed() {
        ReplanDecision first = policy.decide(ReplanState.INITIAL, 200, 150);
        assertThat(first.verdict()).isEqualTo(ReplanDecision.Verdict.KEEP);
        assertThat(first.reason()).contains("150.000 ms vs current 200.000 ms").contains("1 of 2");
        ReplanDecision second = policy.decide(first.next(), 200, 160);
        assertThat(second.replan()).isTrue();
        assertThat(second.reason()).startsWith("re-plan:").contains("2 consecutive");
        assertThat(second.next()).isEqualTo(ReplanState.INITIAL);
    }

    @Test
    void noiseInsideTheBandHoldsAndNoiseBelowItResets() {
        ReplanDecision pending = policy.decide(ReplanState.INITIAL, 200, 150);
        ReplanDecision held = policy.decide(pending.next(), 200, 186); // 7 %: inside [5 %, 10 %)
        assertThat(held.replan()).isFalse();
        assertThat(held.next().streak()).isEqualTo(1);
        assertThat(held.reason()).contains("hysteresis band");
        ReplanDecision reset = policy.decide(held.next(), 200, 198); // 1 %
        assertThat(reset.next()).isEqualTo(ReplanState.INITIAL);
        assertThat(policy.decide(reset.next(), 200, 150).replan()).as("one good sample after a reset is not enough").isFalse();
    }

    @Test
    void alternatingSmallDifferencesNeverFlap() {
        ReplanState state = ReplanState.INITIAL;
        for (int i = 0; i < 100; i++) {
            double noisy = i % 2 == 0 ? 185 : 215;
            ReplanDecision decision = policy.decide(state, 200, noisy);
            assertThat(decision.replan()).isFalse();
            state = decision.next();
        }
    }

    @Test
    void tinyAbsoluteGainsDoNotCount() {
        ReplanPolicy immediate = new ReplanPolicy(0.10, 0.05, 1, 1.0);
        assertThat(immediate.decide(ReplanState.INITIAL, 2.0, 1.5).replan()).as("25 % but only 0.5 ms").isFalse();
        assertThat(immediate.decide(ReplanState.INITIAL, 20, 15).replan()).isTrue();
    }

    @Test
    void aCurrentPlanOverALostLinkIsReplacedAtOnce() {
        ReplanDecision decision = policy.decide(ReplanState.INITIAL, Double.POSITIVE_INFINITY, 300);
        assertThat(decision.replan()).isTrue();
        assertThat(decision.reason()).contains("no longer measured");
        assertThat(policy.decide(ReplanState.INITIAL, 300, Double.POSITIVE_INFINITY).replan()).isFalse();
    }

    @Test
    void rejectsInconsistentSettings() {
        assertThatThrownBy(() -> new ReplanPolicy(0.05, 0.10, 2, 0)).hasMessageContaining("releaseFraction <= triggerFraction");
        assertThatThrownBy(() -> new ReplanPolicy(0.10, 0.05, 0, 0)).hasMessageContaining("confirmations");
        assertThatThrownBy(() -> policy.decide(ReplanState.INITIAL, Double.NaN, 1)).hasMessageContaining("completions");
    }
}
