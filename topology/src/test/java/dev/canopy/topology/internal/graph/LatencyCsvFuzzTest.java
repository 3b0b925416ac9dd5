package dev.canopy.topology.internal.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.canopy.gridconfig.Excerpt;
import java.io.StringReader;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded fuzzing of the latency CSV reader: every input gives a graph or a {@link LatencyCsvException}
 * (the documented error) with a one-line message of bounded length that names the source; never
 * another exception, a StackOverflowError or a hang. Rerun a failure with {@code -Dcanopy.fuzz.seed=SEED}.
 */
class LatencyCsvFuzzTest {

    private static final String SOURCE = "fuzz.csv";
    private static final String CHARS = "ab ,,,\n\r0123456789.-e\t\uFEFF\uFFFDé\u001b";
    private static final List<String> SEEDS = List.of(
            "from,to,rtt_ms\na,b,10\nb,a,12\na,c,7.5\n",
            "\uFEFFfrom,to,rtt_ms\r\nWest US 2,East Asia,150\r\n\r\nEast Asia,Korea South,33.25\r\n",
            "from,to,rtt_ms\npl001,pl002,0.164\npl001,pl003,2.546\npl002,pl003,1\npl003,pl001,.5\n");
    /** Longest message: the place, the fix and echoed text cut to {@link Excerpt#MAX_CHARS}. */
    private static final int MAX_MESSAGE = 400;
    private static final long SLOW_NANOS = TimeUnit.SECONDS.toNanos(2);

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aHundredThousandInputsGiveAGraphOrAShortLocatedError() {
        fuzz(100_000);
    }

    @Test
    @Tag("exhaustive")
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void aMillionInputsGiveAGraphOrAShortLocatedError() {
        fuzz(1_000_000);
    }

    private static void fuzz(int inputs) {
        long seed = Long.getLong("canopy.fuzz.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        int graphs = 0;
        for (int i = 0; i < inputs; i++) {
            String text = random.nextInt(4) == 0 ? characters(random) : mutated(random);
            long start = System.nanoTime();
            try {
                LatencyCsvReader.read(new StringReader(text), SOURCE);
                graphs++;
            } catch (LatencyCsvException e) {
                String message = e.getMessage();
                if (!message.startsWith(SOURCE + ":") || message.length() > MAX_MESSAGE || message.contains("\n")) {
                    fail("seed %d, input %d (%s): bad message %s", seed, i, Excerpt.quoted(text), Excerpt.of(message));
                }
            } catch (Throwable t) {
                throw new AssertionError("seed " + seed + ", input " + i + " (" + Excerpt.quoted(text) + ") threw " + t, t);
            }
            if (System.nanoTime() - start > SLOW_NANOS) {
                fail("seed %d, input %d (%s) took %d ms", seed, i, Excerpt.quoted(text), (System.nanoTime() - start) / 1_000_000);
            }
        }
        assertThat(graphs).as("seed %d: some inputs stay valid, or the reader's happy path goes untested", seed).isPositive();
    }

    private static String characters(SplittableRandom random) {
        StringBuilder text = new StringBuilder(random.nextBoolean() ? LatencyCsvReader.HEADER + "\n" : "");
        int length = random.nextInt(200);
        for (int i = 0; i < length; i++) {
            text.append(CHARS.charAt(random.nextInt(CHARS.length())));
        }
        return text.toString();
    }

    /** A valid CSV with one to five edits; now and then a line or a name far over the limits. */
    private static String mutated(SplittableRandom random) {
        StringBuilder text = new StringBuilder(SEEDS.get(random.nextInt(SEEDS.size())));
        int edits = 1 + random.nextInt(5);
        for (int i = 0; i < edits && text.length() > 0; i++) {
            int at = random.nextInt(text.length());
            int length = Math.min(text.length() - at, 1 + random.nextInt(12));
            switch (random.nextInt(6)) {
                case 0 -> text.delete(at, at + length);
                case 1 -> text.insert(at, text.substring(at, at + length));
                case 2 -> text.setCharAt(at, CHARS.charAt(random.nextInt(CHARS.length())));
                case 3 -> text.insert(at, random.nextInt(20) == 0 ? "n".repeat(200 + random.nextInt(3_000)) : "x");
                case 4 -> text.insert(at, "\n" + random.nextInt(1000) + "," + random.nextInt(1000) + "," + random.nextInt(1000) + "\n");
                default -> text.insert(at, random.nextBoolean() ? "1e9" : "-0.0");
            }
        }
        return text.toString();
    }
}
