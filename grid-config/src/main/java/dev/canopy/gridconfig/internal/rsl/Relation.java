package dev.canopy.gridconfig.internal.rsl;

import java.util.List;

/** {@code (attribute op value+)} as written, with the place of the attribute and the operator. */
public record Relation(Position position, String attribute, Position attributePosition, Operator operator,
        Position operatorPosition, List<ValueExpr> values) {

    public Relation {
        values = List.copyOf(values);
    }
}
