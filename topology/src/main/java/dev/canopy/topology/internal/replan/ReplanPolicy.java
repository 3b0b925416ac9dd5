package dev.canopy.topology.internal.replan;

/**
 * Decides whether fresh forecasts justify replacing the current plan. Pure decision logic for the
 * plan leader: compare the current plan re-evaluated on the fresh forecasts
 * ({@link dev.canopy.topology.internal.hierarchy.HierarchicalPlan#predictedCompletionMsOn(dev.canopy.topology.internal.graph.LatencySource)})
 * with a new plan computed on them.
 *
 * <p>Hysteresis keeps noise from flapping: an improvement counts only when it is at least
 * {@code triggerFraction} of the current completion and at least {@code minImprovementMs}; it must be
 * seen on {@code confirmations} consecutive evaluations; an evaluation whose improvement falls
 * between {@code releaseFraction} and {@code triggerFraction} holds the count (neither confirms nor
 * resets), and one below {@code releaseFraction} resets it. A current plan that uses a link no longer
 * measured (infinite completion) is replaced at once.
 */
public record ReplanPolicy(double triggerFraction, double releaseFraction, int confirmations, double minImprovementMs) {

    /** Re-plan after two consecutive evaluations at least 10 % and 1 ms better; reset below 5 %. */
    public static final ReplanPolicy DEFAULT = new ReplanPolicy(0.10, 0.05, 2, 1.0);

    public ReplanPolicy {
        if (!(releaseFraction >= 0 && releaseFraction <= triggerFraction && triggerFraction > 0 && triggerFraction < 1)) {
            throw new IllegalArgumentException("need 0 <= releaseFraction <= triggerFraction < 1 and triggerFraction > 0, got release "
                    + releaseFraction + ", trigger " + triggerFraction);
        }
        if (confirmations < 1) {
            throw new IllegalArgumentException("confirmations must be >= 1, got " + confirmations);
        }
        if (!Double.isFinite(minImprovementMs) || minImprovementMs < 0) {
            throw new IllegalArgumentException("minImprovementMs must be a finite number >= 0, got " + minImprovementMs);
        }
    }

    /**
     * @param state the streak carried from the previous evaluation ({@link ReplanState#INITIAL} at first)
     * @param currentMs the current plan's predicted completion on the fresh forecasts
     * @param candidateMs a new plan's predicted completion on the same forecasts (infinite if none is feasible)
     */
    public ReplanDecision decide(ReplanState state, double currentMs, double candidateMs) {
        if (Double.isNaN(currentMs) || Double.isNaN(candidateMs) || currentMs < 0 || candidateMs < 0) {
            throw new IllegalArgumentException("completions must be >= 0, got current " + currentMs + ", candidate " + candidateMs);
        }
        if (candidateMs == Double.POSITIVE_INFINITY) {
            return keep(ReplanState.INITIAL, "keep: no new plan reaches every member on the fresh forecasts");
        }
        if (currentMs == Double.POSITIVE_INFINITY) {
            return replan(String.format("re-plan: the current plan uses a link that is no longer measured; the new plan "
                    + "predicts %.3f ms", candidateMs));
        }
        double gainMs = currentMs - candidateMs;
        double fraction = currentMs == 0 ? 0 : gainMs / currentMs;
        String comparison = String.format("new plan %.3f ms vs current %.3f ms on fresh forecasts (%+.1f %%)",
                candidateMs, currentMs, -100 * fraction);
        if (fraction >= triggerFraction && gainMs >= minImprovementMs) {
            int streak = state.streak() + 1;
            if (streak >= confirmations) {
                return replan(String.format("re-plan: %s, at least %.1f %% and %.3f ms better on %d consecutive "
                        + "evaluations", comparison, 100 * triggerFraction, minImprovementMs, streak));
            }
            return keep(new ReplanState(streak), String.format("keep: %s; improvement seen %d of %d times needed",
                    comparison, streak, confirmations));
        }
        if (fraction >= releaseFraction && state.streak() > 0) {
            return keep(state, String.format("keep: %s, inside the hysteresis band (%.1f %% to %.1f %%); holding %d of %d",
                    comparison, 100 * releaseFraction, 100 * triggerFraction, state.streak(), confirmations));
        }
        return keep(ReplanState.INITIAL, String.format("keep: %s, below the %.1f %% and %.3f ms needed", comparison,
                100 * triggerFraction, minImprovementMs));
    }

    private static ReplanDecision keep(ReplanState next, String reason) {
        return new ReplanDecision(ReplanDecision.Verdict.KEEP, reason, next);
    }

    private static ReplanDecision replan(String reason) {
        return new ReplanDecision(ReplanDecision.Verdict.REPLAN, reason, ReplanState.INITIAL);
    }
}
