package dev.canopy.collectives.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.internal.engine.SiteRoutes;
import dev.canopy.collectives.internal.engine.Sites;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfiguredPlansTest {

    private final GridModel grid = GridConfigs.defaultGrid();

    private List<Member> members() {
        List<Member> members = new ArrayList<>();
        for (ProcessPlacement process : grid.processes()) {
            members.add(new Member(NodeId.of("p" + process.globalIndex()), process.coordinates(),
                    new NodeAddress("127.0.0.1", 1000 + process.globalIndex(), 1000 + process.globalIndex())));
        }
        members.sort(Member.RANK_ORDER);
        return members;
    }

    @Test
    void everyRootGetsATreeOverAllRanksThatCrossesEachSiteOnce() {
        List<Member> members = members();
        TopologyPlan plan = ConfiguredPlans.of(members, grid);
        for (int root = 0; root < members.size(); root++) {
            RootedTree tree = plan.tree(root);
            assertThat(tree.subtree(root)).hasSize(members.size());
            int wanEdges = 0;
            for (int rank = 0; rank < members.size(); rank++) {
                for (int child : tree.children(rank)) {
                    Level level = members.get(rank).coordinates().linkLevel(members.get(child).coordinates());
                    if (level == Level.HEAVY_WAN || level == Level.LIGHT_WAN) {
                        wanEdges++;
                    }
                }
            }
            assertThat(wanEdges).as("WAN edges of the tree rooted at %d", root).isEqualTo(grid.sites().size() - 1);
        }
    }

    @Test
    void hlotFromYonseiRelaysAroundTheSlowKistiLinkAndBeatsFlat() {
        List<Member> members = members();
        TopologyPlan hlot = ConfiguredPlans.of(members, grid);
        TopologyPlan flat = ConfiguredPlans.of(members, grid, LevelChoices.of(grid.levels()).with(Level.HEAVY_WAN, TreeAlgorithm.FLAT));
        assertThat(hlot.epoch()).isNotEqualTo(flat.epoch());
        int yonsei = indexOfSite(members, "yonsei-a");
        assertThat(hlot.hierarchicalPlan(yonsei).predictedCompletionMs())
                .isLessThan(flat.hierarchicalPlan(yonsei).predictedCompletionMs());
    }

    @Test
    void plansAreTheSameOnEveryMember() {
        assertThat(ConfiguredPlans.of(members(), grid).epoch()).isEqualTo(ConfiguredPlans.of(members(), grid).epoch());
        assertThat(ConfiguredPlans.of(members(), grid).tree(5).toString())
                .isEqualTo(ConfiguredPlans.of(members(), grid).tree(5).toString());
    }

    @Test
    void latenciesBetweenRanksAreTheLevelFilesOneWayDelays() {
        List<Member> members = members();
        TopologyPlan plan = ConfiguredPlans.of(members, grid);
        int yonsei = indexOfSite(members, "yonsei-a");
        int kisti = indexOfSite(members, "kisti-a");
        assertThat(plan.oneWayMs(yonsei, kisti)).isEqualTo(190);
        assertThat(plan.oneWayMs(kisti, yonsei)).isEqualTo(120);
        assertThat(plan.oneWayMs(yonsei, yonsei)).isZero();
        assertThatThrownBy(() -> plan.oneWayMs(0, members.size())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not both ranks");
    }

    /**
     * The alltoall relay on the 8-site example: no aggregate crosses a link slower than 30 ms one way
     * (the Yonsei-KISTI links and the congested yonsei-b to kut-b peering take 60 to 190 ms).
     */
    @Test
    void relayedAllToAllRoutesAvoidTheSlowLinksOfTheExample() {
        List<Member> members = members();
        TopologyPlan plan = ConfiguredPlans.of(members, grid);
        Sites sites = Sites.ofMembers(members);
        SiteRoutes routes = SiteRoutes.fastest(sites, plan::oneWayMs, CollectiveSettings.DEFAULT_RELAY_HOP_MS);
        assertThat(sites.count()).isEqualTo(8);
        for (int from = 0; from < sites.count(); from++) {
            for (int to = 0; to < sites.count(); to++) {
                if (from != to) {
                    int[] path = routes.path(from, to);
                    for (int hop = 1; hop < path.length; hop++) {
                        assertThat(plan.oneWayMs(sites.coordinator(path[hop - 1]), sites.coordinator(path[hop])))
                                .as("hop %d of %s", hop, routes).isLessThan(30);
                    }
                }
            }
        }
        int yonsei = sites.siteOf(indexOfSite(members, "yonsei-a"));
        int kisti = sites.siteOf(indexOfSite(members, "kisti-a"));
        int kut = sites.siteOf(indexOfSite(members, "kut-a"));
        assertThat(routes.path(yonsei, kisti)).containsExactly(yonsei, kut, kisti);
    }

    private static int indexOfSite(List<Member> members, String site) {
        for (int rank = 0; rank < members.size(); rank++) {
            if (members.get(rank).coordinates().site().equals(site)) {
                return rank;
            }
        }
        throw new IllegalArgumentException(site);
    }

    /**
     * Three sites: a and b 10 ms apart one way over a 10 Mb/s link, c 6 ms from each over 1 Gb/s links. Latency
     * alone routes a to b directly; a plan sized for 1 MB relays through c (8 ms on each fast link, not 800 ms).
     */
    @Test
    void relayRoutesAvoidAThinLinkWhenThePlansBytesMakeItPay() {
        GridModel thin = GridConfigs.parse("""
                +
                ( &(type = subjob) (label = "a") (count = 2) )
                ( &(type = subjob) (label = "b") (count = 2) )
                ( &(type = subjob) (label = "c") (count = 2) )
                ( &(type = link) (between = "a" "b") (rtt_ms = 20) (bandwidth_mbps = 10) )
                ( &(type = link) (between = "a" "c") (rtt_ms = 12) (bandwidth_mbps = 1000) )
                ( &(type = link) (between = "c" "b") (rtt_ms = 12) (bandwidth_mbps = 1000) )
                """, "thin-link.rsl").model().orElseThrow();
        List<Member> members = new ArrayList<>();
        for (ProcessPlacement process : thin.processes()) {
            members.add(new Member(NodeId.of("p" + process.globalIndex()), process.coordinates(),
                    new NodeAddress("127.0.0.1", 1000 + process.globalIndex(), 1000 + process.globalIndex())));
        }
        members.sort(Member.RANK_ORDER);
        Sites sites = Sites.ofMembers(members);
        int a = sites.siteOf(indexOfSite(members, "a"));
        int b = sites.siteOf(indexOfSite(members, "b"));
        int c = sites.siteOf(indexOfSite(members, "c"));
        TopologyPlan latencyOnly = ConfiguredPlans.of(members, thin);
        TopologyPlan megabyte = ConfiguredPlans.of(members, thin, LevelChoices.of(thin.levels()), 1_000_000);

        assertThat(SiteRoutes.fastest(sites, latencyOnly::hopMs, CollectiveSettings.DEFAULT_RELAY_HOP_MS).path(a, b))
                .containsExactly(a, b);
        assertThat(megabyte.transferMs(sites.coordinator(a), sites.coordinator(b))).isCloseTo(800, within(1e-6));
        assertThat(SiteRoutes.fastest(sites, megabyte::hopMs, CollectiveSettings.DEFAULT_RELAY_HOP_MS).path(a, b))
                .containsExactly(a, c, b);
    }
}
