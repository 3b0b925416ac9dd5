package dev.canopy.gridconfig.internal.rsl;

import dev.canopy.gridconfig.Excerpt;

/**
 * One token with the place it starts. For literals {@code text} is the value with quotes removed
 * and doubled quotes undone; for other tokens it is the source text.
 */
public record Token(TokenKind kind, String text, Position position) {

    /** How error messages show this token: {@code '('}, {@code "abc"}, {@code the end of the file}. */
    public String describe() {
        return switch (kind) {
            case LITERAL -> Excerpt.quoted(text);
            case END -> kind.description();
            default -> "'" + text + "'";
        };
    }
}
