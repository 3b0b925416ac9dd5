package dev.canopy.gridconfig.internal.rsl;

import dev.canopy.gridconfig.Keyword;
import java.util.HashSet;
import java.util.Set;

/**
 * What a section lost to errors: the attributes of relations that were dropped, and whether a
 * relation was dropped before its attribute could be read ({@link Integrity#DAMAGED}). Checks that
 * report something missing ask {@link #mayLack(String)} first, so one error is not reported twice.
 */
public record Damage(Set<String> attributes, Integrity unnamed) {

    public static final Damage NONE = new Damage(Set.of(), Integrity.COMPLETE);

    public Damage {
        attributes = Set.copyOf(attributes);
    }

    /** This damage plus a dropped relation of {@code attribute}, as written. */
    public Damage withAttribute(String attribute) {
        Set<String> more = new HashSet<>(attributes);
        more.add(Keyword.canonical(attribute));
        return new Damage(more, unnamed);
    }

    /** This damage plus a dropped relation whose attribute is unknown. */
    public Damage withUnnamed() {
        return new Damage(attributes, Integrity.DAMAGED);
    }

    /** Whether {@code attribute} may have been given in a relation that was dropped. */
    public boolean mayLack(String attribute) {
        return unnamed == Integrity.DAMAGED || attributes.contains(Keyword.canonical(attribute));
    }

    public boolean isNone() {
        return attributes.isEmpty() && unnamed == Integrity.COMPLETE;
    }
}
