package dev.canopy.gridconfig.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.canopy.gridconfig.Diagnostic;
import dev.canopy.gridconfig.Excerpt;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.ParseResult;
import dev.canopy.gridconfig.internal.rsl.Diagnostics;
import dev.canopy.gridconfig.internal.rsl.Parser;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded fuzzing of the level-file reader: every input ends in a model (or syntax tree) or in located
 * diagnostics of bounded length (the documented outcome: the reader never throws), never an
 * exception, a StackOverflowError or a hang. The default run sends 100,000 inputs through the lexer
 * and parser and 10,000 through every check; {@code -Pexhaustive} a million each. A failure prints the seed and the input's index; rerun with
 * {@code -Dcanopy.fuzz.seed=SEED}.
 */
class LevelFileFuzzTest {

    private static final String FILE = "fuzz.rsl";

    /** Longest formatted diagnostic: a message with echoed tokens cut to {@link Excerpt#MAX_CHARS}. */
    private static final int MAX_LINE = 600;
    /** Far more than any small input needs: exceeded only by a hang or a quadratic blow-up. */
    private static final long SLOW_NANOS = TimeUnit.SECONDS.toNanos(2);

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aHundredThousandInputsEndInASyntaxTreeOrLocatedErrors() {
        fuzz(100_000, Stage.PARSER);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void tenThousandInputsEndInAModelOrLocatedErrors() {
        fuzz(10_000, Stage.WHOLE_READER);
    }

    @Test
    @Tag("exhaustive")
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void aMillionInputsEndInASyntaxTreeOrLocatedErrors() {
        fuzz(1_000_000, Stage.PARSER);
    }

    @Test
    @Tag("exhaustive")
    @Timeout(value = 60, unit = TimeUnit.MINUTES)
    void aMillionInputsEndInAModelOrLocatedErrors() {
        fuzz(1_000_000, Stage.WHOLE_READER);
    }

    /** How far each input goes: lexer and parser only (cheap, where the stack overflow was), or every check to a model. */
    private enum Stage {
        PARSER {
            @Override
            ParseResult read(String text) {
                Diagnostics diagnostics = new Diagnostics(FILE);
                Parser.parse(text, diagnostics);
                return diagnostics.isEmpty() ? null : ParseResult.invalid(diagnostics.sorted());
            }
        },
        WHOLE_READER {
            @Override
            ParseResult read(String text) {
                return GridConfigs.parse(text, FILE);
            }
        };

        /** The diagnostics as a result, or for the parser stage null when there are none. */
        abstract ParseResult read(String text);
    }

    private static void fuzz(int inputs, Stage stage) {
        long seed = Long.getLong("canopy.fuzz.seed", System.nanoTime());
        LevelFileMutator mutator = new LevelFileMutator(seed);
        int clean = 0;
        for (int i = 0; i < inputs; i++) {
            String text = mutator.next();
            long start = System.nanoTime();
            ParseResult result;
            try {
                result = stage.read(text);
            } catch (Throwable t) {
                throw new AssertionError("seed " + seed + ", input " + i + " (" + Excerpt.quoted(text) + ") threw " + t, t);
            }
            if (System.nanoTime() - start > SLOW_NANOS) {
                fail("seed %d, input %d (%s) took %d ms", seed, i, Excerpt.quoted(text), (System.nanoTime() - start) / 1_000_000);
            }
            if (result == null || result.isValid()) {
                clean++;
            } else {
                check(result, text, seed, i);
            }
        }
        assertThat(clean).as("seed %d: some mutated files stay valid, or the checks past them go untested", seed).isPositive();
    }

    private static void check(ParseResult result, String text, long seed, int index) {
        long lines = text.chars().filter(c -> c == '\n').count() + 1;
        for (Diagnostic diagnostic : result.diagnostics()) {
            String line = diagnostic.format();
            boolean located = diagnostic.line() >= 1 && diagnostic.line() <= lines && diagnostic.column() >= 1;
            if (!located || line.length() > MAX_LINE || line.contains("\n") || diagnostic.message().isBlank()) {
                fail("seed %d, input %d (%s): bad diagnostic %s", seed, index, Excerpt.quoted(text), Excerpt.of(line));
            }
        }
    }
}
