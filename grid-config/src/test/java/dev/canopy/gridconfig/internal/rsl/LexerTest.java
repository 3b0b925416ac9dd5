package dev.canopy.gridconfig.internal.rsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.canopy.gridconfig.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

class LexerTest {

    private final Diagnostics diagnostics = new Diagnostics("t.rsl");

    private List<Token> tokens(String text) {
        return Lexer.tokenize(text, diagnostics);
    }

    @Test
    void everyTokenKeepsItsLineAndColumn() {
        List<Token> tokens = tokens("+\n( &(count = 4)\n  (label=\"x\") )");

        assertThat(tokens).extracting(Token::kind, Token::text, Token::position).containsExactly(
                tuple(TokenKind.PLUS, "+", new Position(1, 1)),
                tuple(TokenKind.OPEN, "(", new Position(2, 1)),
                tuple(TokenKind.AND, "&", new Position(2, 3)),
                tuple(TokenKind.OPEN, "(", new Position(2, 4)),
                tuple(TokenKind.LITERAL, "count", new Position(2, 5)),
                tuple(TokenKind.OPERATOR, "=", new Position(2, 11)),
                tuple(TokenKind.LITERAL, "4", new Position(2, 13)),
                tuple(TokenKind.CLOSE, ")", new Position(2, 14)),
                tuple(TokenKind.OPEN, "(", new Position(3, 3)),
                tuple(TokenKind.LITERAL, "label", new Position(3, 4)),
                tuple(TokenKind.OPERATOR, "=", new Position(3, 9)),
                tuple(TokenKind.LITERAL, "x", new Position(3, 10)),
                tuple(TokenKind.CLOSE, ")", new Position(3, 13)),
                tuple(TokenKind.CLOSE, ")", new Position(3, 15)),
                tuple(TokenKind.END, "", new Position(3, 16)));
        assertThat(diagnostics.isEmpty()).isTrue();
    }

    @Test
    void bothQuoteStylesUndoDoubledQuotes() {
        List<Token> tokens = tokens("\"say \"\"hi\"\"\" 'it''s' \"a'b\" 'a\"b'");

        assertThat(tokens).extracting(Token::text).containsExactly("say \"hi\"", "it's", "a'b", "a\"b", "");
    }

    @Test
    void quotedLiteralsKeepSpecialCharactersAndNewlines() {
        assertThat(tokens("\"(a)=$#\n&\"").get(0).text()).isEqualTo("(a)=$#\n&");
    }

    @Test
    void allOperatorsAreRecognised() {
        assertThat(tokens("= != < <= > >=")).filteredOn(t -> t.kind() == TokenKind.OPERATOR)
                .extracting(Token::text).containsExactly("=", "!=", "<", "<=", ">", ">=");
    }

    @Test
    void unquotedLiteralsEndAtSpecialCharacters() {
        assertThat(tokens("a#b$(c)")).extracting(Token::kind).containsExactly(TokenKind.LITERAL, TokenKind.HASH,
                TokenKind.LITERAL, TokenKind.DOLLAR, TokenKind.OPEN, TokenKind.LITERAL, TokenKind.CLOSE, TokenKind.END);
    }

    @Test
    void commentsAreSkippedAcrossLinesAndDoNotNest() {
        List<Token> tokens = tokens("(* one\n (* two *) x *)");

        assertThat(tokens).extracting(Token::text).containsExactly("x", "*", ")", "");
        assertThat(tokens.get(0).position()).isEqualTo(new Position(2, 12));
    }

    @Test
    void unterminatedStringAndCommentAreReportedWhereTheyStart() {
        tokens("a \"open\n(* never");

        assertThat(diagnostics.sorted()).extracting(Diagnostic::format)
                .containsExactly("t.rsl:1:3: error: string is never closed; add \" at its end");
        Diagnostics second = new Diagnostics("t.rsl");
        Lexer.tokenize("x (* never", second);
        assertThat(second.sorted()).extracting(Diagnostic::format)
                .containsExactly("t.rsl:1:3: error: comment is never closed; end it with *)");
    }

    @Test
    void loneExclamationMarkIsReportedAndSkipped() {
        List<Token> tokens = tokens("a ! b");

        assertThat(tokens).extracting(Token::text).containsExactly("a", "b", "");
        assertThat(diagnostics.sorted()).extracting(Diagnostic::format)
                .containsExactly("t.rsl:1:3: error: '!' must be followed by '=' (the operator is \"!=\")");
    }
}
