package dev.canopy.core.internal.failure;

import dev.canopy.core.node.NodeId;
import java.util.Objects;

/**
 * A member is gone, as this node learned it: it failed (with the first solid evidence) or it left on
 * purpose, saying goodbye first.
 *
 * @param member   who
 * @param kind     failed, or left
 * @param evidence what showed it failed; null for a member that left
 * @param reason   the sentence failure messages carry
 */
public record Departure(NodeId member, Kind kind, Evidence evidence, String reason) {

    public enum Kind {
        /** It died or became unreachable: the root cause of what fails next. */
        FAILED,
        /** It said goodbye and left (its program ended, possibly because another member had failed). */
        LEFT
    }

    public Departure {
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
        if ((kind == Kind.FAILED) != (evidence != null)) {
            throw new IllegalArgumentException("a failure has evidence, a leave has none: " + kind + ", " + evidence);
        }
    }

    public static Departure failed(NodeId member, Evidence evidence, String detail) {
        return new Departure(member, Kind.FAILED, evidence, evidence.description() + (detail.isEmpty() ? "" : " (" + detail + ")"));
    }

    public static Departure left(NodeId member, String reason) {
        return new Departure(member, Kind.LEFT, null, reason);
    }
}
