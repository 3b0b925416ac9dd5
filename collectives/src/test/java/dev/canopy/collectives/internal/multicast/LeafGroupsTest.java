package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.grid.SyntheticLatencies;
import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.ArrayList;
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
    void theHeadsTreeIsThePlansTreeContractedToOneHeadPerGroup() {
        for (int sites = 1; sites <= 9; sites++) {
            List<Member> members = members(2 * sites + 1, sites);
            LeafGroups groups = LeafGroups.of(members, Level.CLUSTER);
            assertThat(groups.count()).isEqualTo(sites);
            TopologyPlan plan = new TopologyPlan(members, new HierarchicalPlanner(
                    LevelAlgorithms.everywhere(TreeAlgorithm.BINOMIAL), ConfiguredPlans.COST),
                    new SyntheticLatencies(members), 1);
            for (int root = 0; root < members.size(); root++) {
                RootedTree tree = plan.tree(root);
                GroupRoutes routes = GroupRoutes.of(groups, tree);
                RootedTree heads = routes.headsTree();
                assertThat(heads.root()).isEqualTo(root);
                assertThat(routes.head(groups.groupOf(root))).isEqualTo(root);
                Set<Integer> reached = new HashSet<>();
                for (int rank = 0; rank < members.size(); rank++) {
                    int group = groups.groupOf(rank);
                    boolean isHead = routes.head(group) == rank;
                    assertThat(heads.contains(rank)).as("rank %d from root %d", rank, root).isEqualTo(isHead);
                    if (isHead) {
                        assertThat(reached.add(group)).isTrue();
                    }
                    if (isHead && rank != root) {
                        int planParent = tree.parent(rank);
                        assertThat(groups.groupOf(planParent)).as("a head's plan parent is outside its group")
                                .isNotEqualTo(group);
                        assertThat(heads.parent(rank)).isEqualTo(routes.head(groups.groupOf(planParent)));
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
