package dev.canopy.gridconfig.internal.rsl;

import java.util.List;

/** A value as written in a relation, before variables are substituted. */
public sealed interface ValueExpr {

    /** Where the value starts. */
    Position position();

    /** A quoted or unquoted string. */
    record Literal(Position position, String text) implements ValueExpr {
    }

    /** {@code ( value+ )}: a nested sequence, e.g. one pair of {@code levels}. */
    record Sequence(Position position, List<ValueExpr> items) implements ValueExpr {
        public Sequence {
            items = List.copyOf(items);
        }
    }

    /** {@code $(NAME)}: replaced by the value of an {@code rsl_substitution} variable. */
    record VariableRef(Position position, String name) implements ValueExpr {
    }

    /** {@code a # b # ...}: two or more values joined with nothing between them, kept flat however long the chain. */
    record Concatenation(Position position, List<ValueExpr> parts) implements ValueExpr {
        public Concatenation {
            parts = List.copyOf(parts);
            if (parts.size() < 2) {
                throw new IllegalArgumentException("a concatenation joins at least two values, got " + parts.size());
            }
        }
    }
}
