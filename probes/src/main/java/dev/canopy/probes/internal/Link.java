package dev.canopy.probes.internal;

import dev.canopy.core.node.NodeId;
import java.util.Objects;

/**
 * An undirected link between two nodes of a job, as probes see it: a round trip covers both directions,
 * so {@code Link.between(a, b)} and {@code Link.between(b, a)} are the same link. {@link #a()} is the
 * lower id.
 */
public record Link(NodeId a, NodeId b) {

    public Link {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        if (a.compareTo(b) >= 0) {
            throw new IllegalArgumentException("link " + a + " - " + b
                    + " must name two different nodes, lower id first; use Link.between");
        }
    }

    public static Link between(NodeId one, NodeId other) {
        return one.compareTo(other) < 0 ? new Link(one, other) : new Link(other, one);
    }

    public boolean touches(NodeId node) {
        return a.equals(node) || b.equals(node);
    }

    /** The end of this link that is not {@code node}. */
    public NodeId other(NodeId node) {
        if (a.equals(node)) {
            return b;
        }
        if (b.equals(node)) {
            return a;
        }
        throw new IllegalArgumentException("node " + node + " is not an end of link " + this);
    }

    @Override
    public String toString() {
        return a + "~" + b;
    }
}
