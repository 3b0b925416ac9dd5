package dev.canopy.collectives.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.internal.engine.RootedTree;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Size classes and the plan ids of a sized plan, without sockets. */
class SizedPlanTest {

    private static final SizeClasses CLASSES = new SizeClasses(List.of(0L, 64L << 10, 1L << 20));

    @Test
    void aMessageTakesTheClassOfTheLargestLowerBoundItReaches() {
        assertThat(CLASSES.classOf(0)).isZero();
        assertThat(CLASSES.classOf((64 << 10) - 1)).isZero();
        assertThat(CLASSES.classOf(64 << 10)).isEqualTo(1);
        assertThat(CLASSES.classOf((1 << 20) - 1)).isEqualTo(1);
        assertThat(CLASSES.classOf(16L << 20)).isEqualTo(2);
        assertThatThrownBy(() -> CLASSES.classOf(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void classesStartAtZeroIncreaseStrictlyAndFitTheIdsClassByte() {
        assertThatThrownBy(() -> new SizeClasses(List.of(1L))).hasMessageContaining("start at 0 bytes");
        assertThatThrownBy(() -> new SizeClasses(List.of(0L, 5L, 5L))).hasMessageContaining("increase strictly");
        assertThatThrownBy(() -> new SizeClasses(List.of())).isInstanceOf(IllegalArgumentException.class);
        List<Long> seventeen = LongStream.range(0, 17).boxed().toList();
        assertThatThrownBy(() -> new SizeClasses(seventeen)).hasMessageContaining("1 to 16");
    }

    @Test
    void everyClassHasItsOwnIdAndClassZeroKeepsThePlans() {
        SizedPlan plan = new SizedPlan(42, CLASSES, k -> new GivenTree(SizedPlan.classId(42, k)));
        assertThat(plan.epoch()).isEqualTo(42);
        assertThat(plan.sizeClassPlans()).extracting(CollectivePlan::epoch).doesNotHaveDuplicates()
                .startsWith(42L);
        assertThat(plan.forBytes(100_000)).isSameAs(plan.sizeClassPlans().get(1));
        assertThat(plan.sizeClassPlan(SizedPlan.classId(42, 2))).containsSame(plan.sizeClassPlans().get(2));
        assertThat(plan.sizeClassPlan(SizedPlan.classId(43, 2))).as("another plan's class").isEmpty();
        assertThat(plan.choosesBySize()).isTrue();
        assertThat(plan.tree(0).children(0)).as("class 0's tree").containsExactly(1);
        assertThatThrownBy(() -> new SizedPlan(42, CLASSES, k -> new GivenTree(42)))
                .hasMessageContaining("size class 1's plan has id 42");
    }

    /** A two-rank plan whose tree is rank 0 sending to rank 1. */
    private record GivenTree(long epoch) implements CollectivePlan {

        @Override
        public RootedTree tree(int root) {
            return RootedTree.fromChildren(0, List.of(List.of(1), List.of()));
        }

        @Override
        public double oneWayMs(int from, int to) {
            return from == to ? 0 : 1;
        }
    }
}
