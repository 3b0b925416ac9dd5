package dev.canopy.gridconfig;

import dev.canopy.gridconfig.model.GridModel;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The outcome of reading a level file: a model, or the problems found, in file order. Exactly one
 * of the two is present. Bad input is never an exception.
 *
 * @param errorCount how many problems were found: more than {@code diagnostics} holds when only the
 *     first ones are kept (see {@link dev.canopy.gridconfig.internal.rsl.Diagnostics#MAX_KEPT})
 */
public record ParseResult(Optional<GridModel> model, List<Diagnostic> diagnostics, long errorCount) {

    public ParseResult {
        Objects.requireNonNull(model, "model");
        diagnostics = List.copyOf(diagnostics);
        if (model.isPresent() == !diagnostics.isEmpty()) {
            throw new IllegalArgumentException("a parse result has a model or diagnostics, not both or neither: " + diagnostics);
        }
        if (errorCount < (model.isPresent() ? 0 : 1)) {
            throw new IllegalArgumentException("an invalid result counts at least one error, a valid one none; got " + errorCount);
        }
    }

    public static ParseResult valid(GridModel model) {
        return new ParseResult(Optional.of(model), List.of(), 0);
    }

    public static ParseResult invalid(List<Diagnostic> diagnostics) {
        return invalid(diagnostics, diagnostics.size());
    }

    /** Diagnostics that stand for {@code errorCount} problems (the last may sum up those not kept). */
    public static ParseResult invalid(List<Diagnostic> diagnostics, long errorCount) {
        return new ParseResult(Optional.empty(), diagnostics.stream().sorted().toList(), errorCount);
    }

    public boolean isValid() {
        return model.isPresent();
    }

    /**
     * The model, for callers that cannot go on without one (e.g. a bundled file that must be valid).
     *
     * @throws IllegalStateException listing the diagnostics, one per line, if there is no model
     */
    public GridModel orElseThrow() {
        return model.orElseThrow(() -> new IllegalStateException("invalid level file:\n" + formatted()));
    }

    /** Every diagnostic as {@code FILE:LINE:COLUMN: error: message}, one per line. */
    public String formatted() {
        return diagnostics.stream().map(Diagnostic::format).collect(Collectors.joining("\n"));
    }
}
