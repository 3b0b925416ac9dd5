package dev.canopy.gridconfig.internal.rsl;

import dev.canopy.gridconfig.Diagnostic;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;

/**
 * Collects the problems of one file while it is lexed, parsed and checked. Owned by one parse. Keeps
 * the first {@link #MAX_KEPT} in file order and only counts the others: 4 MiB of stray characters
 * would otherwise be four million diagnostics.
 */
public final class Diagnostics {

    /** Problems kept and reported; more are summed up in one last diagnostic. */
    public static final int MAX_KEPT = 100;

    private final String file;
    /** The kept problems, latest in file order at the head, so the next earlier one can evict it. */
    private final PriorityQueue<Diagnostic> kept = new PriorityQueue<>(Comparator.reverseOrder());
    private long dropped;
    private Diagnostic firstDropped;

    public Diagnostics(String file) {
        this.file = file;
    }

    public void error(Position at, String message) {
        add(new Diagnostic(file, at.line(), at.column(), message));
    }

    public void error(Position at, String message, Optional<String> hint) {
        add(new Diagnostic(file, at.line(), at.column(), message, hint));
    }

    private void add(Diagnostic diagnostic) {
        kept.add(diagnostic);
        if (kept.size() > MAX_KEPT) {
            Diagnostic latest = kept.poll();
            dropped++;
            if (firstDropped == null || latest.compareTo(firstDropped) < 0) {
                firstDropped = latest;
            }
        }
    }

    /** Every problem found, kept or not. */
    public long count() {
        return kept.size() + dropped;
    }

    public boolean isEmpty() {
        return kept.isEmpty();
    }

    /** Everything kept, in file order, and then how many more there were, at the first of them. */
    public List<Diagnostic> sorted() {
        List<Diagnostic> sorted = new ArrayList<>(kept.stream().sorted().toList());
        if (dropped > 0) {
            sorted.add(new Diagnostic(file, firstDropped.line(), firstDropped.column(), dropped
                    + " more errors from here on are not shown (at most " + MAX_KEPT + " are); fix the ones above first"));
        }
        return sorted;
    }
}
