package dev.canopy.gridconfig.rsl;

import dev.canopy.gridconfig.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Collects the problems of one file while it is lexed, parsed and checked. Owned by one parse. */
public final class Diagnostics {

    private final String file;
    private final List<Diagnostic> found = new ArrayList<>();

    public Diagnostics(String file) {
        this.file = file;
    }

    public void error(Position at, String message) {
        found.add(new Diagnostic(file, at.line(), at.column(), message));
    }

    public void error(Position at, String message, Optional<String> hint) {
        found.add(new Diagnostic(file, at.line(), at.column(), message, hint));
    }

    public boolean isEmpty() {
        return found.isEmpty();
    }

    /** Everything found so far, in file order. */
    public List<Diagnostic> sorted() {
        return found.stream().sorted().toList();
    }
}
