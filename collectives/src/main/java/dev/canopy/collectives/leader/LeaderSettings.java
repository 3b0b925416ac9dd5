package dev.canopy.collectives.leader;

import dev.canopy.topology.replan.ReplanPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * How the plan leader decides.
 *
 * @param policy when a new plan is worth publishing (fraction, hysteresis band, confirmations)
 * @param evaluationInterval how often the leader re-evaluates without a forecast change: the policy counts
 *     consecutive evaluations, and a forecast that moves once and then holds still must still be confirmed
 */
public record LeaderSettings(ReplanPolicy policy, Duration evaluationInterval) {

    /** The topology module's default policy, re-evaluated every 5 seconds. */
    public static final LeaderSettings DEFAULTS = new LeaderSettings(ReplanPolicy.DEFAULT, Duration.ofSeconds(5));

    public LeaderSettings {
        Objects.requireNonNull(policy, "policy");
        if (evaluationInterval.toMillis() < 1) {
            throw new IllegalArgumentException("plan evaluation interval " + evaluationInterval + " must be at least 1 ms");
        }
    }
}
