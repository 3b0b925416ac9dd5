package dev.canopy.gridconfig.internal.rsl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

class ParserTest {

    private final Diagnostics diagnostics = new Diagnostics("t.rsl");

    private RslDocument parse(String text) {
        return Parser.parse(text, diagnostics);
    }

    private List<String> errors() {
        return diagnostics.sorted().stream().map(Diagnostic::format).toList();
    }

    @Test
    void multiRequestGivesOneSectionPerConjunction() {
        RslDocument document = parse("+ ( &(a = 1) (b = 2) ) ( &(c = 3) )");

        assertThat(document.sections()).hasSize(2);
        assertThat(document.sections().get(0).relations()).extracting(Relation::attribute).containsExactly("a", "b");
        assertThat(errors()).isEmpty();
    }

    @Test
    void singleConjunctionIsOneSection() {
        RslDocument document = parse("&(count = 4)(label = x)");

        assertThat(document.sections()).singleElement().satisfies(s -> assertThat(s.relations()).hasSize(2));
        assertThat(errors()).isEmpty();
    }

    @Test
    void valuesNestAndConcatenate() {
        Relation relation = parse("&(levels = (heavy_wan hlot) (x (y z)) $(A)#\"/b\"#c)").sections().get(0).relations().get(0);

        assertThat(relation.values()).hasSize(3);
        assertThat(relation.values().get(0)).isInstanceOf(ValueExpr.Sequence.class);
        assertThat(((ValueExpr.Sequence) relation.values().get(1)).items().get(1)).isInstanceOf(ValueExpr.Sequence.class);
        ValueExpr.Concatenation concatenation = (ValueExpr.Concatenation) relation.values().get(2);
        assertThat(concatenation.parts()).containsExactly(new ValueExpr.VariableRef(new Position(1, 39), "A"),
                new ValueExpr.Literal(new Position(1, 44), "/b"), new ValueExpr.Literal(new Position(1, 49), "c"));
        assertThat(errors()).isEmpty();
    }

    @Test
    void operatorAndItsPositionAreKept() {
        Relation relation = parse("&(count >= 4)").sections().get(0).relations().get(0);

        assertThat(relation.operator()).isEqualTo(Operator.GE);
        assertThat(relation.operatorPosition()).isEqualTo(new Position(1, 9));
    }

    @Test
    void brokenRelationIsDroppedAndParsingGoesOnAfterIt() {
        RslDocument document = parse("+\n( &(a = (1 2)) (b = ) (c = 3) )\n( &(d = 4) )");

        assertThat(errors()).containsExactly("t.rsl:2:19: error: attribute \"b\" has no value after '='");
        assertThat(document.sections().get(0).relations()).extracting(Relation::attribute).containsExactly("a", "c");
        assertThat(document.sections().get(0).damage().mayLack("b")).isTrue();
        assertThat(document.sections().get(0).damage().mayLack("c")).isFalse();
        assertThat(document.sections().get(1).relations()).extracting(Relation::attribute).containsExactly("d");
    }

    @Test
    void everySyntaxErrorOfAFileIsReportedInOneRun() {
        parse("+\n( &(a = (1 2)) )\n( &(= 4) (x 5) (y = $z) (w = a # ) )\n( (v = 1) )\n( &(u = ()) )");

        assertThat(errors()).containsExactly(
                "t.rsl:3:5: error: expected an attribute name after '(', found '='",
                "t.rsl:3:13: error: expected '=' after attribute \"x\", found \"5\"",
                "t.rsl:3:21: error: '$' must be followed by (NAME), e.g. $(HOME)",
                "t.rsl:3:32: error: '#' must be followed by a value to join, found ')'",
                "t.rsl:4:3: error: expected '&' after '(' to start a section, found '('",
                "t.rsl:5:9: error: empty list '()'; write at least one value inside");
    }

    @Test
    void missingClosingParenthesisIsReportedAtTheOpeningOne() {
        parse("+ ( &(a = 1)");

        assertThat(errors()).containsExactly("t.rsl:1:3: error: section is never closed; add ')' at its end");
    }

    @Test
    void fileMustStartWithPlusOrAmpersand() {
        parse("count = 4");

        assertThat(errors()).first().asString().startsWith("t.rsl:1:1: error: expected '+' (several sections) or '&'");
    }

    @Test
    void emptyFileIsReported() {
        parse("(* nothing *)\n");

        assertThat(errors()).containsExactly(
                "t.rsl:2:1: error: the file has no sections; start it with '+' followed by sections ( &(type = ...) ... )");
    }

    @Test
    void deepNestingIsAnErrorNotAStackOverflow() {
        parse("&(a = " + "(".repeat(100_000) + "x" + ")".repeat(100_000) + ")");

        assertThat(errors()).singleElement().asString().contains("nested more than " + Parser.MAX_NESTING);
    }
}
