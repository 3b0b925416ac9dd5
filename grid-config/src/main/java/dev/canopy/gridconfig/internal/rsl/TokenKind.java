package dev.canopy.gridconfig.internal.rsl;

/** The kinds of tokens of RSL 1.0. */
public enum TokenKind {
    OPEN("'('"),
    CLOSE("')'"),
    AND("'&'"),
    PLUS("'+'"),
    BAR("'|'"),
    OPERATOR("an operator"),
    LITERAL("a value"),
    DOLLAR("'$'"),
    HASH("'#'"),
    END("the end of the file");

    private final String description;

    TokenKind(String description) {
        this.description = description;
    }

    /** How error messages name this kind of token. */
    public String description() {
        return description;
    }
}
