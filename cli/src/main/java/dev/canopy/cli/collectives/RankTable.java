package dev.canopy.cli.collectives;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import java.util.ArrayList;
import java.util.List;

/**
 * The WORLD rank each process of a level file will get, computed before the processes start (they
 * join as node {@code p<index>} and membership ranks members in {@link Member#RANK_ORDER}), so the
 * launcher can prefix their output with the rank.
 */
final class RankTable {

    private final int[] rankOfProcess;

    RankTable(GridModel grid) {
        List<Member> members = new ArrayList<>();
        for (ProcessPlacement process : grid.processes()) {
            // The address does not take part in the rank order.
            members.add(new Member(NodeId.of(memberId(process.globalIndex())), process.coordinates(),
                    new NodeAddress("127.0.0.1", 1, 1)));
        }
        List<Member> ranked = new ArrayList<>(members);
        ranked.sort(Member.RANK_ORDER);
        rankOfProcess = new int[members.size()];
        for (int index = 0; index < members.size(); index++) {
            rankOfProcess[index] = ranked.indexOf(members.get(index));
        }
    }

    /** The member id the process of level-file index {@code processIndex} joins with ({@code JoinOptions}). */
    static String memberId(int processIndex) {
        return "p" + processIndex;
    }

    int rankOf(int processIndex) {
        return rankOfProcess[processIndex];
    }
}
