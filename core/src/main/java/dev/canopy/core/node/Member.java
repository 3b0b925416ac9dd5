package dev.canopy.core.node;

import dev.canopy.gridconfig.Coordinates;
import java.util.Comparator;
import java.util.Objects;

/**
 * A node as the rest of the job sees it: identity, grid coordinates and address.
 * The natural order (coordinates, then node id) is the rank order every node computes identically.
 */
public record Member(NodeId id, Coordinates coordinates, NodeAddress address) implements Comparable<Member> {

    public static final Comparator<Member> RANK_ORDER =
            Comparator.comparing(Member::coordinates).thenComparing(Member::id);

    public Member {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(coordinates, "coordinates");
        Objects.requireNonNull(address, "address");
    }

    @Override
    public int compareTo(Member other) {
        return RANK_ORDER.compare(this, other);
    }
}
