package dev.canopy.core.internal.membership;

import dev.canopy.core.node.Member;
import java.util.Objects;

/**
 * A change of a job's membership. {@link Kind#LEFT} covers a clean leave, a crash (the member's
 * ZooKeeper session expired) and this node's own session expiring (then {@code member} is the local node).
 */
public record MembershipEvent(Kind kind, Member member, String reason) {

    public enum Kind {
        JOINED,
        LEFT
    }

    public MembershipEvent {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(reason, "reason");
    }

    static MembershipEvent joined(Member member) {
        return new MembershipEvent(Kind.JOINED, member, "registered in ZooKeeper");
    }

    static MembershipEvent left(Member member, String reason) {
        return new MembershipEvent(Kind.LEFT, member, reason);
    }
}
