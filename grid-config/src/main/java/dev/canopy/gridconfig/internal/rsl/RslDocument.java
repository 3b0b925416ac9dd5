package dev.canopy.gridconfig.internal.rsl;

import java.util.List;

/** A parsed level file: its sections in file order (a single conjunction gives one section). */
public record RslDocument(List<Conjunction> sections) {

    public RslDocument {
        sections = List.copyOf(sections);
    }
}
