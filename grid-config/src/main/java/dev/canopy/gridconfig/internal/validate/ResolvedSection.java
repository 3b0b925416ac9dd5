package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.internal.rsl.Damage;
import dev.canopy.gridconfig.internal.rsl.Position;
import java.util.List;
import java.util.Map;

/**
 * A section whose values are resolved. {@code variables} holds every variable visible at its end,
 * which for the grid section are the variables of the whole file.
 */
record ResolvedSection(Position position, Damage damage, List<Attribute> attributes, Map<String, String> variables) {

    public ResolvedSection {
        attributes = List.copyOf(attributes);
        variables = Map.copyOf(variables);
    }
}
