package dev.canopy.collectives.plan;

import dev.canopy.collectives.internal.engine.RootedTree;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * A plan with trees per message size: one {@link CollectivePlan} per {@link SizeClasses size class}, each planned
 * for its class's size (a live epoch's bandwidth forecasts price the links, so large messages avoid thin ones). The
 * collectives engine picks the class of every collective's message itself ({@link #forBytes}); as a plan of its own
 * (its {@link #epoch()}, {@link #tree}) it is class 0, the latency trees.
 *
 * <p>Every class plan has its own id on the wire, {@link #classId}: the base id with the class in its top byte, so a
 * frame names the trees its sender runs and a receiver can check or adopt them.
 */
public final class SizedPlan implements CollectivePlan {

    private static final int CLASS_SHIFT = 56;

    private final long baseId;
    private final SizeClasses classes;
    private final List<CollectivePlan> byClass;

    /**
     * @param plans class k's plan for the id {@link #classId}(baseId, k); every member passes the same, and each
     *     plan's {@link CollectivePlan#epoch()} must be that id
     */
    public SizedPlan(long baseId, SizeClasses classes, IntFunction<CollectivePlan> plans) {
        this.baseId = baseId;
        this.classes = classes;
        this.byClass = IntStream.range(0, classes.count()).mapToObj(plans).toList();
        for (int k = 0; k < byClass.size(); k++) {
            if (byClass.get(k).epoch() != classId(baseId, k)) {
                throw new IllegalArgumentException("size class " + k + "'s plan has id " + byClass.get(k).epoch()
                        + ", not " + classId(baseId, k));
            }
        }
    }

    /** The wire id of size class {@code k}'s trees of the plan {@code baseId}; class 0 keeps the base id. */
    public static long classId(long baseId, int k) {
        return baseId ^ ((long) k << CLASS_SHIFT);
    }

    public SizeClasses classes() {
        return classes;
    }

    @Override
    public CollectivePlan forBytes(long bytes) {
        return byClass.get(classes.classOf(bytes));
    }

    @Override
    public List<CollectivePlan> sizeClassPlans() {
        return byClass;
    }

    @Override
    public long epoch() {
        return baseId;
    }

    @Override
    public RootedTree tree(int root) {
        return byClass.get(0).tree(root);
    }

    @Override
    public Future<RootedTree> treeOffLoop(int root, Context context) {
        return byClass.get(0).treeOffLoop(root, context);
    }

    @Override
    public double oneWayMs(int from, int to) {
        return byClass.get(0).oneWayMs(from, to);
    }

    @Override
    public double transferMs(int from, int to) {
        return byClass.get(0).transferMs(from, to);
    }

    @Override
    public String toString() {
        return "plan " + baseId + " sized for " + classes + " bytes";
    }
}
