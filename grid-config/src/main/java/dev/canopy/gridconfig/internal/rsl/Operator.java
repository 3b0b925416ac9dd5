package dev.canopy.gridconfig.internal.rsl;

import java.util.Optional;

/** The relation operators of RSL; Canopy's attributes accept only {@link #EQ}. */
public enum Operator {
    EQ("="),
    NE("!="),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">=");

    private final String symbol;

    Operator(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }

    public static Optional<Operator> fromSymbol(String symbol) {
        for (Operator operator : values()) {
            if (operator.symbol.equals(symbol)) {
                return Optional.of(operator);
            }
        }
        return Optional.empty();
    }
}
