package dev.canopy.collectives.internal.leader;

import dev.canopy.topology.internal.replan.ReplanPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * How the plan leader decides.
 *
 * @param policy when a new plan is worth publishing (fraction, hysteresis band, confirmations)
 * @param evaluationInterval how often the leader re-evaluates without a forecast change, and the least time
 *     between two evaluations: the policy counts consecutive evaluations, so a better plan must hold for at
 *     least one interval before it is published, and a forecast that moves once and then holds still is
 *     still confirmed
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
