package dev.canopy.dashboard.model;

import dev.canopy.core.node.Member;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The job's membership as last read: every member ever in the start record (ranked) or registered before the
 * start, with its state. Immutable.
 *
 * @param started whether the start record exists (ranks are final); before it, ranks are provisional
 */
public record JobSnapshot(String job, boolean started, List<GridMember> members) {

    public static JobSnapshot empty(String job) {
        return new JobSnapshot(job, false, List.of());
    }

    public JobSnapshot {
        members = List.copyOf(members);
    }

    /** The members in rank order as the collectives see them (departed ones included: ranks never move). */
    public List<Member> ranked() {
        return members.stream().map(GridMember::member).toList();
    }

    /** Site names in rank order, each once. */
    public List<String> sites() {
        Set<String> sites = new LinkedHashSet<>();
        members.forEach(m -> sites.add(m.site()));
        return new ArrayList<>(sites);
    }

    public Optional<GridMember> byId(String id) {
        return members.stream().filter(m -> m.id().equals(id)).findFirst();
    }

    /** This snapshot with the members named in {@code failed} as {@link MemberState#FAILED}. */
    public JobSnapshot withFailed(Set<String> failed) {
        if (failed.isEmpty()) {
            return this;
        }
        return new JobSnapshot(job, started, members.stream()
                .map(m -> failed.contains(m.id()) ? new GridMember(m.rank(), m.member(), MemberState.FAILED) : m)
                .toList());
    }

    public long count(MemberState state) {
        return members.stream().filter(m -> m.state() == state).count();
    }
}
