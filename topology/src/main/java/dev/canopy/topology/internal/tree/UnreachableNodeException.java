package dev.canopy.topology.internal.tree;

/** A tree or plan was demanded but {@link #node()} cannot be reached over measured links. */
public final class UnreachableNodeException extends IllegalArgumentException {

    private final String node;

    public UnreachableNodeException(String node, String reason) {
        super("node '" + node + "' cannot be reached: " + reason);
        this.node = node;
    }

    public String node() {
        return node;
    }
}
