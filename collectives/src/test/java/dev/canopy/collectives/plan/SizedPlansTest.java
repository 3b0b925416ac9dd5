package dev.canopy.collectives.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlan;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Plans sized per message on the thin-uplink example: the file's 200 Mb/s uplinks steer auto. */
class SizedPlansTest {

    private final GridModel grid = GridConfigs.loadBundled("thin-uplinks-10site.rsl").model().orElseThrow();

    private List<Member> members() {
        return membersOf(grid);
    }

    private static List<Member> membersOf(GridModel grid) {
        List<Member> members = new ArrayList<>();
        for (ProcessPlacement process : grid.processes()) {
            members.add(new Member(NodeId.of("p" + process.globalIndex()), process.coordinates(),
                    new NodeAddress("127.0.0.1", 1000 + process.globalIndex(), 1000 + process.globalIndex())));
        }
        members.sort(Member.RANK_ORDER);
        return members;
    }

    @Test
    void aMegabyteOverThinUplinksGetsFewerChildrenPerSiteThanTheStarAndIsPredictedFaster() {
        List<Member> members = members();
        HierarchicalPlan auto = ConfiguredPlans.of(members, grid, LevelChoices.of(grid.levels()), 1_000_000)
                .hierarchicalPlan(0);
        HierarchicalPlan flat = ConfiguredPlans.of(members, grid,
                LevelChoices.of(grid.levels()).with(Level.HEAVY_WAN, TreeAlgorithm.FLAT), 1_000_000).hierarchicalPlan(0);
        int rootWanChildren = auto.treesAt(Level.HEAVY_WAN).get(0).tree().childCount(0);
        assertThat(rootWanChildren).as("the root's children in other sites").isLessThan(9);
        // nine copies of 1 MB through one 200 Mb/s uplink take 360 ms
        assertThat(flat.predictedCompletionMs()).isGreaterThan(360);
        assertThat(auto.predictedCompletionMs()).isLessThan(0.7 * flat.predictedCompletionMs());
    }

    @Test
    void autoIsNeverPredictedSlowerThanAnyHeavyWanAlgorithmAtAnySize() {
        List<Member> members = members();
        for (long bytes : new long[] {2, 1024, 65_536, 1_000_000, 16_000_000}) {
            double auto = ConfiguredPlans.of(members, grid, LevelChoices.of(grid.levels()), bytes)
                    .hierarchicalPlan(0).predictedCompletionMs();
            for (TreeAlgorithm algorithm : TreeAlgorithm.values()) {
                double other = ConfiguredPlans.of(members, grid,
                        LevelChoices.of(grid.levels()).with(Level.HEAVY_WAN, algorithm), bytes).hierarchicalPlan(0)
                        .predictedCompletionMs();
                assertThat(auto).as("%d bytes: auto vs %s", bytes, algorithm).isLessThanOrEqualTo(other + 1e-9);
            }
        }
    }

    @Test
    void sizedPlansHaveTheirOwnEpochAndZeroBytesIsTheDefaultPlan() {
        List<Member> members = members();
        long latencyOnly = ConfiguredPlans.of(members, grid).epoch();
        assertThat(ConfiguredPlans.of(members, grid, LevelChoices.of(grid.levels()), 0).epoch()).isEqualTo(latencyOnly);
        assertThat(ConfiguredPlans.of(members, grid, LevelChoices.of(grid.levels()), 1_000_000).epoch())
                .isNotEqualTo(latencyOnly);
    }

    @Test
    void bandwidthsComeFromTheFile() {
        GridBandwidths bandwidths = new GridBandwidths(grid, java.util.Map.of("p0", members().get(0).coordinates()));
        assertThat(bandwidths.siteOf("p0")).isEqualTo(members().get(0).coordinates().site());
        assertThat(bandwidths.uplinkMbps("ams")).isEqualTo(200);
        assertThat(bandwidths.linkMbps("ams", "ber")).isEqualTo(1000);
    }

    @Test
    void aHostsNicIsSharedByEverythingItSendsToOtherHostsAndSites() {
        String nics = """
                +
                ( &(type = subjob) (label = "alpha") (count = 8) (hosts = "h1:4" "h2:4") (nic_mbps = 100) )
                ( &(type = subjob) (label = "beta") (count = 2) )
                ( &(type = link) (between = "alpha" "beta") (rtt_ms = 40) )
                """;
        GridModel limited = GridConfigs.parse(nics, "nics.rsl").model().orElseThrow();
        GridModel unlimited = GridConfigs.parse(nics.replace("(nic_mbps = 100)", ""), "nics.rsl").model().orElseThrow();
        List<Member> members = membersOf(limited);
        assertThat(members.get(0).coordinates().host()).isEqualTo("h1");
        assertThat(new GridBandwidths(limited, ConfiguredPlans.coordinatesOf(members)).nicMbps("alpha/alpha/alpha/alpha/h1"))
                .isEqualTo(100);

        double withNics = ConfiguredPlans.of(membersOf(limited), limited, LevelChoices.of(limited.levels()), 1_000_000)
                .hierarchicalPlan(0).predictedCompletionMs();
        double withoutNics = ConfiguredPlans.of(membersOf(unlimited), unlimited, LevelChoices.of(unlimited.levels()), 1_000_000)
                .hierarchicalPlan(0).predictedCompletionMs();
        // h1's NIC carries 1 MB to h2 and 1 MB to beta, 80 ms each at 100 Mb/s
        assertThat(withNics).isGreaterThanOrEqualTo(160);
        assertThat(withoutNics).isLessThan(40);
    }
}
