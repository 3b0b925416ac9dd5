package dev.canopy.core.internal.membership;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The rank table of a started job and which of its members have departed since. Ranks are fixed at
 * the start barrier: {@code ranked.get(r)} holds rank {@code r}, sorted by {@link Member#RANK_ORDER}
 * (coordinates, then node id), so every node derives the same table from the same member set. A
 * member that leaves keeps its rank and is listed in {@code departed}; nobody else's rank changes.
 */
public record MembershipView(List<Member> ranked, Set<NodeId> departed) {

    public MembershipView {
        ranked = List.copyOf(ranked);
        departed = Set.copyOf(departed);
        for (int i = 1; i < ranked.size(); i++) {
            if (Member.RANK_ORDER.compare(ranked.get(i - 1), ranked.get(i)) >= 0) {
                throw new IllegalArgumentException("members are not in rank order (or repeat) at ranks "
                        + (i - 1) + " and " + i + ": " + ranked.get(i - 1).id() + ", " + ranked.get(i).id());
            }
        }
    }

    /** The table agreed at the start barrier: {@code members} in rank order, nobody departed. */
    public static MembershipView startedWith(Collection<Member> members) {
        return new MembershipView(members.stream().sorted(Member.RANK_ORDER).toList(), Set.of());
    }

    public int size() {
        return ranked.size();
    }

    public Member member(int rank) {
        Objects.checkIndex(rank, ranked.size());
        return ranked.get(rank);
    }

    public OptionalInt rankOf(NodeId id) {
        for (int rank = 0; rank < ranked.size(); rank++) {
            if (ranked.get(rank).id().equals(id)) {
                return OptionalInt.of(rank);
            }
        }
        return OptionalInt.empty();
    }

    public boolean contains(NodeId id) {
        return rankOf(id).isPresent();
    }

    public boolean isAlive(NodeId id) {
        return contains(id) && !departed.contains(id);
    }

    /** The members that have not departed, in rank order. */
    public List<Member> alive() {
        return ranked.stream().filter(member -> !departed.contains(member.id())).toList();
    }

    /** This view with {@code id} departed (the same view if it already was). */
    public MembershipView withDeparture(NodeId id) {
        if (!contains(id)) {
            throw new IllegalArgumentException("node " + id + " is not a member of this job's rank table");
        }
        if (departed.contains(id)) {
            return this;
        }
        Set<NodeId> more = new HashSet<>(departed);
        more.add(id);
        return new MembershipView(ranked, more);
    }
}
