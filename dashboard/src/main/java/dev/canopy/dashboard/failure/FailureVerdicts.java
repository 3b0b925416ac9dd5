package dev.canopy.dashboard.failure;

import dev.canopy.core.internal.failure.Departure;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.dashboard.model.DashboardState;
import java.util.Objects;

/**
 * Shows the failure detector's verdicts on the dashboard: a member that a node in this JVM judged failed
 * (its connection reset without a goodbye, its heartbeats stopped, or its member znode went and it was not
 * heard from after; see {@code FailureMonitor}) is {@code failed} on the grid, with a {@code failure} event
 * naming the evidence. ZooKeeper alone cannot tell a crash from a leave; the detector can. A member that any node
 * heard say goodbye left on purpose, even if another node's detector saw its connection close first (its goodbye
 * still on a slow link): the ZooKeeper reader shows it {@code left}.
 */
public final class FailureVerdicts {

    private FailureVerdicts() {
    }

    /** Reports {@code node}'s verdicts into {@code state} (the first node to judge a member failed names the evidence). */
    public static void follow(CanopyNode node, DashboardState state) {
        Objects.requireNonNull(state, "state");
        String observer = node.id().value();
        node.onDeparture(departure -> {
            if (departure.kind() == Departure.Kind.FAILED) {
                state.memberFailed(departure.member().value(), departure.reason() + " (seen by " + observer + ")");
            } else {
                state.memberSaidGoodbye(departure.member().value());
            }
        });
    }
}
