package dev.canopy.dynamic;

import dev.canopy.core.internal.membership.MembershipView;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Who is who in an inter-communicator: both groups' records, the table of both groups the transport and the
 * communicator below run on (ranked by {@link Member#RANK_ORDER}, as every rank table is), and the translation
 * between a group's local ranks and ranks in that table. Immutable; every member of both groups builds the same.
 */
final class InterTable {

    private final Map<Side, GroupRecord> groups = new EnumMap<>(Side.class);
    private final Map<Side, int[]> unionRanks = new EnumMap<>(Side.class);
    private final MembershipView union;
    private final Side mine;
    private final int localRank;

    InterTable(GroupRecord accepting, GroupRecord connecting, Side mine, int localRank) {
        groups.put(Side.ACCEPT, accepting);
        groups.put(Side.CONNECT, connecting);
        this.mine = mine;
        this.localRank = localRank;
        List<Member> all = new ArrayList<>(accepting.members());
        all.addAll(connecting.members());
        this.union = MembershipView.startedWith(all);
        for (Side side : Side.values()) {
            GroupRecord group = groups.get(side);
            int[] ranks = new int[group.size()];
            for (int r = 0; r < ranks.length; r++) {
                ranks[r] = union.rankOf(group.members().get(r).id()).orElseThrow();
            }
            unionRanks.put(side, ranks);
        }
    }

    MembershipView union() {
        return union;
    }

    Side mine() {
        return mine;
    }

    int localRank() {
        return localRank;
    }

    NodeId self() {
        return group(mine).members().get(localRank).id();
    }

    GroupRecord group(Side side) {
        return groups.get(side);
    }

    int localSize() {
        return group(mine).size();
    }

    int remoteSize() {
        return group(mine.other()).size();
    }

    /** The rank in the table of both groups of {@code side}'s member at {@code rank}. */
    int unionRank(Side side, int rank) {
        return unionRanks.get(side)[rank];
    }

    int unionOfRemote(int remoteRank) {
        return unionRank(mine.other(), remoteRank);
    }

    /** The remote group's rank of the member at {@code unionRank}, or -1 when it is of this group. */
    int remoteRankOf(int unionRank) {
        int[] ranks = unionRanks.get(mine.other());
        for (int r = 0; r < ranks.length; r++) {
            if (ranks[r] == unionRank) {
                return r;
            }
        }
        return -1;
    }
}
