package dev.canopy.collectives.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.collectives.plan.SizedPlan;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.LogGpParameters;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Level-file plans per size class, without sockets: on the thin-uplink example (ten sites behind 200 Mb/s uplinks,
 * {@code auto} at the WAN levels) small and large messages get different trees, each class planned for its lower
 * bound with the file's bandwidths exactly as {@link ConfiguredPlans#of} plans that size; a grid where bandwidth
 * changes nothing keeps one plan.
 */
class ConfiguredSizedPlanTest {

    private static final long MIB = 1 << 20;

    @Test
    void thinUplinksGiveSizeClassesWhoseLargeTreesDifferFromTheLatencyTrees() {
        GridModel grid = bundled("thin-uplinks-10site.rsl");
        List<Member> members = membersOf(grid);
        LevelAlgorithms algorithms = LevelChoices.of(grid.levels());
        CollectivePlan plan = ConfiguredSizedPlan.of(members, grid, algorithms, LogGpParameters.DEFAULTS);

        assertThat(plan).isInstanceOf(SizedPlan.class);
        SizedPlan sized = (SizedPlan) plan;
        assertThat(sized.classes().lowerBounds()).as("classes among the live leader's sizes")
                .hasSizeGreaterThan(1).isSubsetOf(PlanEvaluator.DEFAULT_MESSAGE_SIZES);
        CollectivePlan latencyTrees = ConfiguredPlans.of(members, grid, algorithms, 0, LogGpParameters.DEFAULTS);
        assertThat(sized.epoch()).as("class 0 keeps the file's plan id").isEqualTo(latencyTrees.epoch());
        assertThat(sized.forBytes(2).tree(0)).hasToString(latencyTrees.tree(0).toString());
        assertThat(sized.forBytes(MIB).tree(0).toString()).as("the 1 MiB tree")
                .isNotEqualTo(sized.forBytes(2).tree(0).toString());
        for (int k = 0; k < sized.classes().count(); k++) {
            long bytes = sized.classes().plannedBytes(k);
            CollectivePlan classPlan = sized.sizeClassPlans().get(k);
            assertThat(classPlan.epoch()).isEqualTo(SizedPlan.classId(sized.epoch(), k));
            for (int root : new int[] {0, 7, members.size() - 1}) {
                assertThat(classPlan.tree(root)).as("class %d's tree from %d", k, root)
                        .hasToString(ConfiguredPlans.of(members, grid, algorithms, bytes).tree(root).toString());
            }
        }
    }

    @Test
    void membersOfOneJobFindTheClassesOnceAndEachGetTheirOwnPlan() {
        GridModel grid = bundled("thin-uplinks-10site.rsl");
        List<Member> members = membersOf(grid);
        LevelAlgorithms algorithms = LevelChoices.of(grid.levels());
        SizedPlan first = (SizedPlan) ConfiguredSizedPlan.of(members, grid, algorithms, LogGpParameters.DEFAULTS);
        SizedPlan second = (SizedPlan) ConfiguredSizedPlan.of(new ArrayList<>(members), grid, algorithms,
                LogGpParameters.DEFAULTS);
        assertThat(second.classes()).as("the classes found by the first member").isSameAs(first.classes());
        assertThat(second).as("each member's own plan (its trees are computed on its context)").isNotSameAs(first);

        LogGpParameters slower = new LogGpParameters(LogGpParameters.DEFAULTS.overheadMs() * 10,
                LogGpParameters.DEFAULTS.gapMs(), LogGpParameters.DEFAULTS.perByteMs(),
                LogGpParameters.DEFAULTS.latencyMs());
        SizedPlan otherParameters = (SizedPlan) ConfiguredSizedPlan.of(members, grid, algorithms, slower);
        assertThat(otherParameters.classes()).as("other parameters are another job's inputs, found anew")
                .isNotSameAs(first.classes());
    }

    @Test
    void aGridWhereBandwidthChangesNoTreeKeepsOnePlan() {
        GridModel grid = bundled("two-site.rsl");
        List<Member> members = membersOf(grid);
        LevelAlgorithms algorithms = LevelChoices.of(grid.levels());
        CollectivePlan plan = ConfiguredSizedPlan.of(members, grid, algorithms, LogGpParameters.DEFAULTS);
        assertThat(plan.choosesBySize()).isFalse();
        assertThat(plan.epoch()).isEqualTo(ConfiguredPlans.of(members, grid).epoch());
    }

    private static GridModel bundled(String file) {
        return GridConfigs.loadBundled(file).model().orElseThrow();
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
}
