package dev.canopy.gridconfig.rsl;

import java.util.List;

/** {@code &(relation)...}: one section of a level file. */
public record Conjunction(Position position, List<Relation> relations, Integrity integrity) {

    public Conjunction {
        relations = List.copyOf(relations);
    }
}
