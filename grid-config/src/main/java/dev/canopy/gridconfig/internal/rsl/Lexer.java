package dev.canopy.gridconfig.internal.rsl;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits RSL text into tokens, each with its line and column. Comments {@code (* ... *)} are
 * skipped. A character that cannot start a token, an unterminated string or comment is reported and
 * lexing goes on, so one bad character does not hide the rest of the file's problems.
 */
public final class Lexer {

    /** Characters that end an unquoted literal, besides white space. */
    private static final String SPECIAL = "()=<>!&|+\"'$#";

    private final String text;
    private final Diagnostics diagnostics;
    private final List<Token> tokens = new ArrayList<>();
    private int offset;
    private int line = 1;
    private int column = 1;

    private Lexer(String text, Diagnostics diagnostics) {
        this.text = text;
        this.diagnostics = diagnostics;
    }

    /** The tokens of {@code text}, always ending with one {@link TokenKind#END} token. */
    public static List<Token> tokenize(String text, Diagnostics diagnostics) {
        Lexer lexer = new Lexer(text, diagnostics);
        lexer.run();
        return List.copyOf(lexer.tokens);
    }

    private void run() {
        while (offset < text.length()) {
            char c = text.charAt(offset);
            Position start = here();
            if (Character.isWhitespace(c)) {
                advance();
            } else if (c == '(' && peek(1) == '*') {
                skipComment(start);
            } else if (c == '"' || c == '\'') {
                quoted(c, start);
            } else if (SPECIAL.indexOf(c) >= 0) {
                symbol(c, start);
            } else {
                unquoted(start);
            }
        }
        tokens.add(new Token(TokenKind.END, "", here()));
    }

    private void symbol(char c, Position start) {
        switch (c) {
            case '(' -> single(TokenKind.OPEN, start);
            case ')' -> single(TokenKind.CLOSE, start);
            case '&' -> single(TokenKind.AND, start);
            case '+' -> single(TokenKind.PLUS, start);
            case '|' -> single(TokenKind.BAR, start);
            case '$' -> single(TokenKind.DOLLAR, start);
            case '#' -> single(TokenKind.HASH, start);
            case '=' -> single(TokenKind.OPERATOR, start);
            case '<', '>' -> operatorMaybeWithEquals(start);
            case '!' -> {
                if (peek(1) == '=') {
                    operatorMaybeWithEquals(start);
                } else {
                    advance();
                    diagnostics.error(start, "'!' must be followed by '=' (the operator is \"!=\")");
                }
            }
            default -> throw new IllegalStateException("no token for special character '" + c + "' at " + start);
        }
    }

    private void single(TokenKind kind, Position start) {
        tokens.add(new Token(kind, String.valueOf(text.charAt(offset)), start));
        advance();
    }

    private void operatorMaybeWithEquals(Position start) {
        int from = offset;
        advance();
        if (offset < text.length() && text.charAt(offset) == '=') {
            advance();
        }
        tokens.add(new Token(TokenKind.OPERATOR, text.substring(from, offset), start));
    }

    private void unquoted(Position start) {
        int from = offset;
        while (offset < text.length()) {
            char c = text.charAt(offset);
            if (Character.isWhitespace(c) || SPECIAL.indexOf(c) >= 0) {
                break;
            }
            advance();
        }
        tokens.add(new Token(TokenKind.LITERAL, text.substring(from, offset), start));
    }

    /** A quoted literal; the quote character doubled stands for itself. May span lines. */
    private void quoted(char quote, Position start) {
        advance();
        StringBuilder value = new StringBuilder();
        while (offset < text.length()) {
            char c = text.charAt(offset);
            advance();
            if (c != quote) {
                value.append(c);
            } else if (peek(0) == quote) {
                value.append(quote);
                advance();
            } else {
                tokens.add(new Token(TokenKind.LITERAL, value.toString(), start));
                return;
            }
        }
        diagnostics.error(start, "string is never closed; add " + quote + " at its end");
        tokens.add(new Token(TokenKind.LITERAL, value.toString(), start));
    }

    /** Comments do not nest: the first {@code *)} ends the comment. */
    private void skipComment(Position start) {
        advance();
        advance();
        while (offset < text.length()) {
            if (text.charAt(offset) == '*' && peek(1) == ')') {
                advance();
                advance();
                return;
            }
            advance();
        }
        diagnostics.error(start, "comment is never closed; end it with *)");
    }

    private char peek(int ahead) {
        int at = offset + ahead;
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private void advance() {
        if (text.charAt(offset) == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
        offset++;
    }

    private Position here() {
        return new Position(line, column);
    }
}
