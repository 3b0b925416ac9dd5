package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.Excerpt;
import dev.canopy.gridconfig.internal.rsl.Damage;
import dev.canopy.gridconfig.internal.rsl.Diagnostics;
import dev.canopy.gridconfig.internal.rsl.Operator;
import dev.canopy.gridconfig.internal.rsl.Position;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The attributes of one section of a known kind, looked up by their documented spelling. Building
 * it reports unknown attributes (with a spelling hint), operators other than {@code =} and
 * attributes given twice; those relations are left out.
 */
final class AttributeTable {

    private final Position position;
    private final Damage damage;
    private final Map<String, Attribute> byName;

    private AttributeTable(Position position, Damage damage, Map<String, Attribute> byName) {
        this.position = position;
        this.damage = damage;
        this.byName = byName;
    }

    static AttributeTable of(ResolvedSection section, SectionKind kind, Diagnostics diagnostics) {
        Map<String, Attribute> byName = new LinkedHashMap<>();
        Damage damage = section.damage();
        for (Attribute attribute : section.attributes()) {
            Optional<String> known = kind.attribute(attribute.written());
            if (known.isEmpty()) {
                diagnostics.error(attribute.namePosition(), "unknown attribute " + Excerpt.quoted(attribute.written()) + " in a "
                        + kind.configName() + " section", SpellingHint.closest(attribute.written(), kind.attributeNames()));
                continue;
            }
            if (attribute.operator() != Operator.EQ) {
                diagnostics.error(attribute.operatorPosition(), "attribute \"" + known.get() + "\" takes \"=\", not \""
                        + attribute.operator().symbol() + "\"");
                damage = damage.withAttribute(attribute.written());
                continue;
            }
            Attribute first = byName.putIfAbsent(known.get(), attribute);
            if (first != null) {
                diagnostics.error(attribute.namePosition(), "attribute \"" + known.get() + "\" is given twice in this section; the first is at "
                        + first.namePosition());
            }
        }
        return new AttributeTable(section.position(), damage, byName);
    }

    Optional<Attribute> get(String documentedName) {
        return Optional.ofNullable(byName.get(documentedName));
    }

    /** Where {@code documentedName} is given, else where the section starts. */
    Position positionOf(String documentedName) {
        return get(documentedName).map(Attribute::namePosition).orElse(position);
    }

    /** The attributes among {@code names} that are given, in file order, keyed by documented spelling. */
    Map<String, Attribute> present(List<String> names) {
        Map<String, Attribute> found = new LinkedHashMap<>();
        byName.forEach((name, attribute) -> {
            if (names.contains(name)) {
                found.put(name, attribute);
            }
        });
        return found;
    }

    Position position() {
        return position;
    }

    /** Whether {@code documentedName} may have been given in a relation dropped for an error already reported. */
    boolean mayLack(String documentedName) {
        return damage.mayLack(documentedName);
    }

}
