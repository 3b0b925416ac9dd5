package dev.canopy.gridconfig;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Level-file text written to hurt the reader: every case ends in located errors of bounded length,
 * never a StackOverflowError, an OutOfMemoryError or minutes of work.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostileTextTest {

    /** Longest formatted diagnostic any of these inputs may produce: the fix must fit, the token need not. */
    private static final int MAX_LINE = 400;

    private static List<Diagnostic> errors(String text) {
        ParseResult result = GridConfigs.parse(text, "h.rsl");
        assertThat(result.isValid()).isFalse();
        assertThat(result.diagnostics()).allSatisfy(d -> assertThat(d.format()).hasSizeLessThan(MAX_LINE).doesNotContain("\n"));
        return result.diagnostics();
    }

    @Test
    void strayClosingParenthesesDoNotLiftTheNestingLimit() {
        String text = "+ " + ")".repeat(200_000) + " ( &(a = " + "(".repeat(100_000) + "x" + ")".repeat(100_000) + ") )";

        assertThat(errors(text)).extracting(Diagnostic::message).contains("values are nested more than 64 levels deep");
    }

    @Test
    void aLongChainOfJoinsIsReadWithoutRecursionAndStopsAtTheJoinedLimit() {
        String text = "+ ( &(type = subjob) (label = " + "x # ".repeat(400_000) + "x) )";

        assertThat(errors(text)).extracting(Diagnostic::message).containsExactly("joined value is longer than 65536 characters");
    }

    @Test
    void aThreeMegabyteTokenIsShownCutToItsStartAndSize() {
        String token = "y".repeat(3 << 20);

        List<Diagnostic> diagnostics = errors("+ ( &(type = subjob) (" + token + " = 1) )");

        assertThat(diagnostics).singleElement().satisfies(d -> assertThat(d.format()).isEqualTo(
                "h.rsl:1:23: error: unknown attribute \"" + "y".repeat(64) + "...\" (3145728 bytes) in a subjob section"));
    }

    @Test
    void longTokensAreCutWhereverAnErrorEchoesThem() {
        String big = "z".repeat(1 << 20);
        String text = "+ " + big + " ( &(type = subjob) (count = " + big + ") (site = $(" + big + ")) (fabric = " + big + ")"
                + " (" + big + " " + big + ") (label = '" + big + "') ) ( &(type = link) (between = " + big + " s) (rtt_ms = "
                + big + ") (direction = " + big + ") ) ( &(type = " + big + ") )";

        assertThat(errors(text)).hasSizeGreaterThanOrEqualTo(8);
    }

    @Test
    void controlCharactersInEchoedTokensAreEscaped() {
        List<Diagnostic> diagnostics = errors("+ ( &(type = subjob) (count = \"\u001b[2J\n4\") )");

        assertThat(diagnostics).singleElement().satisfies(d ->
                assertThat(d.message()).isEqualTo("count must be a whole number, got \"\\u001b[2J\\n4\""));
    }

    @Test
    void aMillionErrorsAreCountedNotKept() {
        ParseResult result = GridConfigs.parse("!".repeat(4_000_000), "h.rsl");
        List<Diagnostic> diagnostics = result.diagnostics();

        assertThat(result.errorCount()).isEqualTo(100 + Long.parseLong(diagnostics.get(100).message().split(" ")[0]));

        assertThat(diagnostics).hasSize(101);
        assertThat(diagnostics.get(100).message())
                .matches("3999\\d{3} more errors from here on are not shown \\(at most 100 are\\); fix the ones above first");
    }

    @Test
    void spellingHintsForHugeWordsCostNoQuadraticTime() {
        String variable = "v".repeat(200_000);
        String text = "+ ( &(type = grid) (rsl_substitution = (" + variable + "a x)) ) ( &(type = subjob) (label = $(" + variable
                + "b)) )";

        assertThat(errors(text)).extracting(Diagnostic::message).singleElement().asString().startsWith("undefined variable");
    }

    @Test
    void tensOfThousandsOfSitesAndLinksAreCheckedInLinearTime() {
        StringBuilder text = new StringBuilder("+\n");
        for (int i = 0; i < 20_000; i++) {
            text.append("( &(type = subjob) (site = s").append(i).append(") )\n");
        }
        for (int i = 0; i < 20_000; i++) {
            text.append("( &(type = link) (between = s").append(i).append(" x").append(i).append(") (rtt_ms = 1) )\n");
        }

        List<Diagnostic> diagnostics = errors(text.toString());

        assertThat(diagnostics.get(0).message()).isEqualTo("link names unknown site \"x0\"; sites are s0, s1, s2, s3, s4, s5, s6, s7,"
                + " s8, s9, ... (20000 in all)");
    }
}
