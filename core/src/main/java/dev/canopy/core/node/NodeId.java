package dev.canopy.core.node;

import java.util.Objects;
import java.util.regex.Pattern;

/** The identity of a node inside one job. Safe to use as a ZooKeeper znode name and in log lines. */
public record NodeId(String value) implements Comparable<NodeId> {

    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._:@-]{1,128}");

    public NodeId {
        Objects.requireNonNull(value, "value");
        if (!ALLOWED.matcher(value).matches()) {
            throw new IllegalArgumentException("node id '" + value
                    + "' must be 1 to 128 characters of letters, digits and . _ : @ -");
        }
    }

    public static NodeId of(String value) {
        return new NodeId(value);
    }

    @Override
    public int compareTo(NodeId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
