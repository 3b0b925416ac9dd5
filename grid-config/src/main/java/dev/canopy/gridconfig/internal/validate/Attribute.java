package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.Keyword;
import dev.canopy.gridconfig.internal.rsl.Operator;
import dev.canopy.gridconfig.internal.rsl.Position;
import java.util.List;

/** A relation of a section with its values resolved: {@code written} is the attribute as spelled in the file. */
record Attribute(String written, Position namePosition, Operator operator, Position operatorPosition,
        List<Resolved> values) {

    public Attribute {
        values = List.copyOf(values);
    }

    String canonical() {
        return Keyword.canonical(written);
    }
}
