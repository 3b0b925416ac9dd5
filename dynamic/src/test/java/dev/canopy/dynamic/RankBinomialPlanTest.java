package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.plan.CollectivePlan;
import org.junit.jupiter.api.Test;

/** The flat phase's trees: MPICH's binomial tree over ranks, whatever the members' sites. */
class RankBinomialPlanTest {

    /** A group plan that must not be asked for trees: the flat phase reads only its latencies. */
    private static final CollectivePlan GROUP = new CollectivePlan() {
        @Override
        public long epoch() {
            return 7;
        }

        @Override
        public RootedTree tree(int root) {
            throw new AssertionError("the flat phase planned a tree on the group's plan");
        }

        @Override
        public double oneWayMs(int from, int to) {
            return from == to ? 0 : 12.5;
        }
    };

    @Test
    void everyRootGetsTheBinomialTreeOverRanksLargestSubtreeFirst() {
        RankBinomialPlan plan = new RankBinomialPlan(GROUP, 16, 1);
        RootedTree fromZero = plan.tree(0);
        assertThat(fromZero.children(0)).containsExactly(8, 4, 2, 1);
        assertThat(fromZero.children(8)).containsExactly(12, 10, 9);
        assertThat(fromZero.children(12)).containsExactly(14, 13);
        assertThat(fromZero.children(14)).containsExactly(15);
        assertThat(fromZero.depth()).isEqualTo(4);
        RootedTree fromFive = plan.tree(5);     // relative ranks: rank r is (r - 5) mod 16
        assertThat(fromFive.children(5)).containsExactly(13, 9, 7, 6);
        assertThat(fromFive.parent(4)).isEqualTo(3);
        assertThat(plan.tree(5)).isSameAs(fromFive);
    }

    @Test
    void aGroupOfOneIsItsOwnTreeAndLatenciesAreTheGroupPlans() {
        RankBinomialPlan plan = new RankBinomialPlan(GROUP, 1, 1);
        assertThat(plan.tree(0).children(0)).isEmpty();
        assertThat(new RankBinomialPlan(GROUP, 4, 1).oneWayMs(1, 3)).isEqualTo(12.5);
    }
}
