package dev.canopy.gridconfig.internal.rsl;

import java.util.List;

/** {@code &(relation)...}: one section of a level file, and what it lost to syntax errors. */
public record Conjunction(Position position, List<Relation> relations, Damage damage) {

    public Conjunction {
        relations = List.copyOf(relations);
    }
}
