package dev.canopy.gridconfig.internal.rsl;

import dev.canopy.gridconfig.Excerpt;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Recursive-descent parser for RSL 1.0 ({@code spec := '+' ('(' conj ')')+ | conj}). A syntax
 * error drops the relation it occurs in, is recorded in its section's {@link Damage}, and parsing
 * resumes after the relation's closing parenthesis, so later problems are still reported.
 */
public final class Parser {

    /** Deeper nesting than this is surely a mistake, and would otherwise exhaust the stack. */
    static final int MAX_NESTING = 64;

    private final List<Token> tokens;
    private final Diagnostics diagnostics;
    private int next;
    /** Parentheses open at the current token; only differences matter, for recovery (stray ')' can make it negative). */
    private int openDepth;
    /** Value lists open around the current one, counted by {@link #sequence} itself so that no stray token can lift the limit. */
    private int valueNesting;

    private Parser(List<Token> tokens, Diagnostics diagnostics) {
        this.tokens = tokens;
        this.diagnostics = diagnostics;
    }

    /** Lexes and parses {@code text}; problems go to {@code diagnostics}. */
    public static RslDocument parse(String text, Diagnostics diagnostics) {
        return new Parser(Lexer.tokenize(text, diagnostics), diagnostics).document();
    }

    private RslDocument document() {
        List<Conjunction> sections = new ArrayList<>();
        Token first = peek();
        switch (first.kind()) {
            case PLUS -> {
                take();
                if (peek().kind() != TokenKind.OPEN) {
                    diagnostics.error(peek().position(), "expected '(' to start a section after '+', found " + peek().describe());
                }
            }
            case AND -> sections.add(conjunction(first.position(), Optional.empty()));
            case END -> diagnostics.error(first.position(), "the file has no sections; start it with '+' followed by sections ( &(type = ...) ... )");
            case OPEN -> diagnostics.error(first.position(), "expected '+' before the first section");
            default -> {
                diagnostics.error(first.position(), "expected '+' (several sections) or '&' (one section), found " + first.describe());
                take();
                skipUntilOpen();
            }
        }
        while (peek().kind() != TokenKind.END) {
            if (peek().kind() == TokenKind.OPEN) {
                sections.add(parenthesisedConjunction());
            } else {
                Token stray = take();
                diagnostics.error(stray.position(), "expected '(' to start a section, found " + stray.describe());
                skipUntilOpen();
            }
        }
        return new RslDocument(sections);
    }

    private Conjunction parenthesisedConjunction() {
        int outer = openDepth;
        Token open = take();
        if (peek().kind() != TokenKind.AND) {
            diagnostics.error(peek().position(), "expected '&' after '(' to start a section, found " + peek().describe());
            if (peek().kind() != TokenKind.OPEN) {
                recoverTo(outer);
                return new Conjunction(open.position(), List.of(), Damage.NONE.withUnnamed());
            }
        }
        return conjunction(open.position(), Optional.of(outer));
    }

    /**
     * Relations after '&'. {@code enclosingDepth} is the depth to return to when the section sits in
     * parentheses that must be closed, empty for a file that is a single bare conjunction.
     */
    private Conjunction conjunction(Position start, Optional<Integer> enclosingDepth) {
        if (peek().kind() == TokenKind.AND) {
            take();
        }
        List<Relation> relations = new ArrayList<>();
        Damage damage = Damage.NONE;
        while (true) {
            Token token = peek();
            if (token.kind() == TokenKind.OPEN) {
                damage = relation(relations, damage);
            } else if (token.kind() == TokenKind.CLOSE && enclosingDepth.isPresent()) {
                take();
                break;
            } else if (token.kind() == TokenKind.END) {
                if (enclosingDepth.isPresent()) {
                    diagnostics.error(start, "section is never closed; add ')' at its end");
                    damage = damage.withUnnamed();
                }
                break;
            } else {
                diagnostics.error(token.position(), "expected '(' to start a relation such as (count = 4), found " + token.describe());
                damage = damage.withUnnamed();
                take();
                skipToNextRelationOrEnd();
            }
        }
        if (relations.isEmpty() && damage.isNone()) {
            diagnostics.error(start, "section has no relations");
        }
        return new Conjunction(start, relations, damage);
    }

    /**
     * Parses one relation and adds it to {@code relations}; a relation with a syntax error is
     * dropped and recorded in the damage returned.
     */
    private Damage relation(List<Relation> relations, Damage damage) {
        int outer = openDepth;
        Token open = take();
        Token name = peek();
        if (name.kind() != TokenKind.LITERAL) {
            diagnostics.error(name.position(), "expected an attribute name after '(', found " + name.describe());
            recoverTo(outer);
            return damage.withUnnamed();
        }
        take();
        Token operatorToken = peek();
        Optional<Operator> operator = operatorToken.kind() == TokenKind.OPERATOR
                ? Operator.fromSymbol(operatorToken.text()) : Optional.empty();
        if (operator.isEmpty()) {
            diagnostics.error(operatorToken.position(),
                    "expected '=' after attribute " + Excerpt.quoted(name.text()) + ", found " + operatorToken.describe());
            recoverTo(outer);
            return damage.withAttribute(name.text());
        }
        take();
        List<ValueExpr> values = new ArrayList<>();
        while (startsValue(peek())) {
            Optional<ValueExpr> value = value();
            if (value.isEmpty()) {
                recoverTo(outer);
                return damage.withAttribute(name.text());
            }
            values.add(value.get());
        }
        if (peek().kind() != TokenKind.CLOSE) {
            String problem = values.isEmpty() ? "attribute " + Excerpt.quoted(name.text()) + " has no value"
                    : "expected ')' to close the relation " + Excerpt.quoted(name.text()) + " opened at " + open.position();
            diagnostics.error(peek().position(), problem + ", found " + peek().describe());
            recoverTo(outer);
            return damage.withAttribute(name.text());
        }
        take();
        if (values.isEmpty()) {
            diagnostics.error(operatorToken.position(), "attribute " + Excerpt.quoted(name.text()) + " has no value after '" + operatorToken.text() + "'");
            return damage.withAttribute(name.text());
        }
        relations.add(new Relation(open.position(), name.text(), name.position(), operator.get(),
                operatorToken.position(), values));
        return damage;
    }

    /** A primary, or primaries joined by '#': one flat {@link ValueExpr.Concatenation}, however long the chain. */
    private Optional<ValueExpr> value() {
        Optional<ValueExpr> first = primary();
        if (first.isEmpty() || peek().kind() != TokenKind.HASH) {
            return first;
        }
        List<ValueExpr> parts = new ArrayList<>(List.of(first.get()));
        while (peek().kind() == TokenKind.HASH) {
            Token hash = take();
            if (!startsValue(peek())) {
                diagnostics.error(hash.position(), "'#' must be followed by a value to join, found " + peek().describe());
                return Optional.empty();
            }
            Optional<ValueExpr> next = primary();
            if (next.isEmpty()) {
                return Optional.empty();
            }
            parts.add(next.get());
        }
        return Optional.of(new ValueExpr.Concatenation(first.get().position(), parts));
    }

    private Optional<ValueExpr> primary() {
        Token token = peek();
        return switch (token.kind()) {
            case LITERAL -> {
                take();
                yield Optional.of(new ValueExpr.Literal(token.position(), token.text()));
            }
            case OPEN -> sequence();
            case DOLLAR -> variable();
            default -> throw new IllegalStateException("callers check startsValue before primary(), found " + token);
        };
    }

    private Optional<ValueExpr> sequence() {
        Token open = take();
        if (valueNesting >= MAX_NESTING) {
            diagnostics.error(open.position(), "values are nested more than " + MAX_NESTING + " levels deep");
            return Optional.empty();
        }
        valueNesting++;
        try {
            return sequenceItems(open);
        } finally {
            valueNesting--;
        }
    }

    private Optional<ValueExpr> sequenceItems(Token open) {
        List<ValueExpr> items = new ArrayList<>();
        while (startsValue(peek())) {
            Optional<ValueExpr> item = value();
            if (item.isEmpty()) {
                return Optional.empty();
            }
            items.add(item.get());
        }
        if (peek().kind() != TokenKind.CLOSE) {
            diagnostics.error(peek().position(), "expected a value or ')' to close the list opened at "
                    + open.position() + ", found " + peek().describe());
            return Optional.empty();
        }
        take();
        if (items.isEmpty()) {
            diagnostics.error(open.position(), "empty list '()'; write at least one value inside");
            return Optional.empty();
        }
        return Optional.of(new ValueExpr.Sequence(open.position(), items));
    }

    private Optional<ValueExpr> variable() {
        Token dollar = take();
        if (peek().kind() != TokenKind.OPEN) {
            diagnostics.error(dollar.position(), "'$' must be followed by (NAME), e.g. $(HOME)");
            return Optional.empty();
        }
        take();
        Token name = peek();
        if (name.kind() != TokenKind.LITERAL) {
            diagnostics.error(name.position(), "expected a variable name after '$(', found " + name.describe());
            return Optional.empty();
        }
        take();
        if (peek().kind() != TokenKind.CLOSE) {
            diagnostics.error(peek().position(), "expected ')' after variable name " + Excerpt.quoted(name.text()) + ", found " + peek().describe());
            return Optional.empty();
        }
        take();
        return Optional.of(new ValueExpr.VariableRef(dollar.position(), name.text()));
    }

    private static boolean startsValue(Token token) {
        return token.kind() == TokenKind.LITERAL || token.kind() == TokenKind.OPEN || token.kind() == TokenKind.DOLLAR;
    }

    /** Skips tokens until the parentheses opened since depth {@code depth} are closed again. */
    private void recoverTo(int depth) {
        while (openDepth > depth && peek().kind() != TokenKind.END) {
            take();
        }
    }

    /** After a stray token in a section: on to the next '(' or the section's ')'. */
    private void skipToNextRelationOrEnd() {
        while (peek().kind() != TokenKind.OPEN && peek().kind() != TokenKind.CLOSE && peek().kind() != TokenKind.END) {
            take();
        }
    }

    private void skipUntilOpen() {
        while (peek().kind() != TokenKind.OPEN && peek().kind() != TokenKind.END) {
            take();
        }
    }

    private Token peek() {
        return tokens.get(next);
    }

    /** Consumes one token, keeping {@link #openDepth} in step with the parentheses consumed. */
    private Token take() {
        Token token = tokens.get(next);
        if (token.kind() == TokenKind.END) {
            return token;
        }
        next++;
        if (token.kind() == TokenKind.OPEN) {
            openDepth++;
        } else if (token.kind() == TokenKind.CLOSE) {
            openDepth--;
        }
        return token;
    }
}
