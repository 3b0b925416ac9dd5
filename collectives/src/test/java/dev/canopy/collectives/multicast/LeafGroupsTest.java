package dev.canopy.collectives.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LeafGroupsTest {

    /** {@code members} members spread over {@code sites} sites of one wan group, one cluster per site. */
    private static List<Member> members(int count, int sites) {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String site = "s" + (i % sites);
            members.add(new Member(NodeId.of("n" + i), new Coordinates("w", site, site + "-lan", site + "-c", "h" + i),
                    new NodeAddress("127.0.0.1", 1000 + i, 1000 + i)));
        }
        members.sort(Member.RANK_ORDER);
        return members;
    }

    @Test
    void theHeadsTreeReachesEveryGroupOnceFromEveryRoot() {
        for (int sites = 1; sites <= 9; sites++) {
            List<Member> members = members(2 * sites + 1, sites);
            LeafGroups groups = LeafGroups.of(members, Level.CLUSTER);
            assertThat(groups.count()).isEqualTo(sites);
            for (int root = 0; root < members.size(); root++) {
                Set<Integer> reached = new HashSet<>();
                Deque<Integer> heads = new ArrayDeque<>(List.of(root));
                while (!heads.isEmpty()) {
                    int head = heads.pop();
                    int group = groups.groupOf(head);
                    assertThat(reached.add(group)).as("group %d reached twice from root %d", group, root).isTrue();
                    assertThat(groups.head(group, root)).isEqualTo(head);
                    for (int child : groups.childHeads(group, root)) {
                        assertThat(groups.parentHead(groups.groupOf(child), root)).isEqualTo(head);
                        heads.push(child);
                    }
                }
                assertThat(reached).hasSize(sites);
            }
        }
    }

    @Test
    void groupsFollowTheLevelsGroupKey() {
        List<Member> members = members(6, 2);
        LeafGroups groups = LeafGroups.of(members, Level.CLUSTER);
        for (int group = 0; group < groups.count(); group++) {
            for (int rank : groups.ranks(group)) {
                assertThat(members.get(rank).coordinates().groupKey(Level.CLUSTER))
                        .isEqualTo(members.get(groups.ranks(group)[0]).coordinates().groupKey(Level.CLUSTER));
            }
        }
        assertThat(LeafGroups.of(members, Level.LIGHT_WAN).count()).isEqualTo(1);
    }
}
