package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.multicast.internal.groups.GroupPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cost model's size classes and corrections, which every member evaluates for every {@code auto} call and must
 * evaluate alike: integer arithmetic only, the nearest corrected class found without allocating.
 */
class PolicyCostModelTest {

    private static final PolicyCostModel.Lines FLAT = new PolicyCostModel.Lines(new PolicyCostModel.Line(100, 0),
            new PolicyCostModel.Line(100, 0));
    private static final Map<GroupPolicy, PolicyCostModel.Lines> ALL_FLAT = Map.of(GroupPolicy.STATIC, FLAT,
            GroupPolicy.DYNAMIC, FLAT, GroupPolicy.TREE, FLAT);

    @Test
    void theNearerTargetCountOnALogScaleIsDecidedInIntegers() {
        PolicyCostModel model = new PolicyCostModel(5, 20, ALL_FLAT);
        // sqrt(5 x 20) = 10 lies halfway on a log scale: 10 and below belong to 5, 11 and above to 20.
        for (int targets : new int[] {1, 5, 9, 10}) {
            assertThat(model.sizeClass(GroupPolicy.STATIC, CallShape.scatter(targets, 1)) / 64).as("%d targets", targets)
                    .isZero();
        }
        for (int targets : new int[] {11, 20, 28, Integer.MAX_VALUE}) {
            assertThat(model.sizeClass(GroupPolicy.STATIC, CallShape.scatter(targets, 1)) / 64).as("%d targets", targets)
                    .isOne();
        }
        PolicyCostModel small = new PolicyCostModel(4, 4, ALL_FLAT);
        assertThat(small.sizeClass(GroupPolicy.STATIC, CallShape.scatter(9, 1)) / 64).as("one target count").isZero();
    }

    @Test
    void aClassNotCorrectedTakesTheNearestCorrectedOneAtItsTargetCountTheSmallerOnATie() {
        // Static at 5 targets: classes 5 (16-31 B) and 9 (256-511 B) corrected; 20 targets: class 64 + 20.
        PolicyCostModel model = new PolicyCostModel(5, 20, ALL_FLAT, Map.of(GroupPolicy.STATIC,
                Map.of(5, 2.0, 9, 3.0, 64 + 20, 7.0)));
        assertThat(model.micros(GroupPolicy.STATIC, CallShape.scatter(1, 20))).as("own class").isEqualTo(200);
        assertThat(model.micros(GroupPolicy.STATIC, CallShape.scatter(1, 64))).as("class 7: a tie, the smaller")
                .isEqualTo(200);
        assertThat(model.micros(GroupPolicy.STATIC, CallShape.scatter(1, 128))).as("class 8: nearer 9").isEqualTo(300);
        assertThat(model.micros(GroupPolicy.STATIC, CallShape.scatter(1, 1 << 20))).as("far above: 9").isEqualTo(300);
        assertThat(model.micros(GroupPolicy.STATIC, CallShape.scatter(20, 1))).as("20 targets: its own count first")
                .isEqualTo(700);
        PolicyCostModel onlyMany = new PolicyCostModel(5, 20, ALL_FLAT, Map.of(GroupPolicy.TREE, Map.of(64 + 3, 0.5)));
        assertThat(onlyMany.micros(GroupPolicy.TREE, CallShape.scatter(1, 1))).as("the other count when its own has none")
                .isEqualTo(50);
        assertThat(onlyMany.micros(GroupPolicy.STATIC, CallShape.scatter(1, 1))).as("no correction").isEqualTo(100);
    }

    @Test
    void theCheapestWinsAndATieGoesToTheFirstOfStaticDynamicTree() {
        PolicyCostModel tie = new PolicyCostModel(5, 20, ALL_FLAT);
        assertThat(tie.choose(CallShape.scatter(5, 10))).isEqualTo(GroupPolicy.STATIC);
        PolicyCostModel treeCheaper = new PolicyCostModel(5, 20, ALL_FLAT, Map.of(GroupPolicy.TREE, Map.of(64 + 4, 0.5)));
        assertThat(treeCheaper.choose(CallShape.scatter(5, 10))).isEqualTo(GroupPolicy.TREE);
        PolicyCostModel dynamicCheaper = new PolicyCostModel(5, 20, ALL_FLAT, Map.of(GroupPolicy.TREE, Map.of(4, 0.9),
                GroupPolicy.DYNAMIC, Map.of(4, 0.8)));
        assertThat(dynamicCheaper.choose(CallShape.scatter(5, 10))).isEqualTo(GroupPolicy.DYNAMIC);
    }

    @Test
    void anIncumbentStaysWithinTheMarginAndYieldsBeyondIt() {
        CallShape call = CallShape.scatter(5, 10);
        // The tree's class at 5 targets x 10 B (50 B sent): 64 x 0 + bit length 6.
        PolicyCostModel treeSlightlyCheaper = new PolicyCostModel(5, 20, ALL_FLAT, Map.of(GroupPolicy.TREE,
                Map.of(6, 0.96)));
        assertThat(treeSlightlyCheaper.choose(call)).as("no incumbent: the cheapest").isEqualTo(GroupPolicy.TREE);
        assertThat(treeSlightlyCheaper.withIncumbents(Map.of(call, GroupPolicy.STATIC)).choose(call))
                .as("4 %% cheaper: static stays").isEqualTo(GroupPolicy.STATIC);
        PolicyCostModel treeCheaper = new PolicyCostModel(5, 20, ALL_FLAT, Map.of(GroupPolicy.TREE, Map.of(6, 0.94)));
        assertThat(treeCheaper.withIncumbents(Map.of(call, GroupPolicy.STATIC)).choose(call))
                .as("6 %% cheaper: the tree takes over").isEqualTo(GroupPolicy.TREE);
        assertThat(treeCheaper.withIncumbents(Map.of(CallShape.scatter(5, 11), GroupPolicy.STATIC)).choose(call))
                .as("another shape's incumbent").isEqualTo(GroupPolicy.TREE);
    }
}
