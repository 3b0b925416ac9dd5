package dev.canopy.topology.internal.tree;

import java.util.Objects;

/**
 * The outcome of building a tree or a plan: either the value, or the node that the measured links
 * cannot reach (real latency data has holes, so that is an expected outcome, not a bug).
 *
 * @param <T> what was planned
 */
public sealed interface PlanningResult<T> {

    static <T> PlanningResult<T> planned(T value) {
        return new Planned<>(value);
    }

    static <T> PlanningResult<T> unreachable(String node, String reason) {
        return new Unreachable<>(node, reason);
    }

    /** The value, or an {@link UnreachableNodeException} naming the node and why. */
    T orElseThrow();

    boolean isPlanned();

    /** The planned value. */
    record Planned<T>(T value) implements PlanningResult<T> {
        public Planned {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public T orElseThrow() {
            return value;
        }

        @Override
        public boolean isPlanned() {
            return true;
        }
    }

    /** No tree can reach {@code node} with the measured links; {@code reason} says which links are missing. */
    record Unreachable<T>(String node, String reason) implements PlanningResult<T> {
        @Override
        public T orElseThrow() {
            throw new UnreachableNodeException(node, reason);
        }

        @Override
        public boolean isPlanned() {
            return false;
        }

        /** The same outcome, typed for another value. */
        public <U> Unreachable<U> retype() {
            return new Unreachable<>(node, reason);
        }
    }
}
