package dev.canopy.gridconfig;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.model.GridModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Random and mutated files: every input ends in a model or in located errors, never an exception,
 * and every model read from a mangled file still prints and reads back as itself.
 */
class FuzzTest {

    private static final String RSL_CHARS = "()&+|=!<>\"'$#* \n\tabz019._-:/é";

    /** Pieces of real level files, so that random sequences often get deep into the checks. */
    private static final List<String> TOKENS = List.of("+", "&", "(", ")", "(", ")", "=", "!=", "<", ">=", "$(", "#", "(*", "*)",
            "\"", "'", "|", "type", "grid", "subjob", "link", "label", "count", "hosts", "site", "wan_group", "lan_id",
            "cluster", "fabric", "ib", "levels", "heavy_wan", "hlot", "lan", "host", "local", "thresholds_ms",
            "rsl_substitution", "environment", "GLOBUS_LAN_ID", "GLOBUS_DUROC_SUBJOB_INDEX", "between", "rtt_ms",
            "loss", "bandwidth_mbps", "direction", "one_way", "uplink_mbps", "nic_mbps", "resourceManagerContact", "executable",
            "\"a\"", "\"b\"", "'h:2'", "0", "1", "4", "-3", "2.5", "1e999", "99999999999", "a", "b", "X", ")(");

    private static final List<String> SEEDS = seeds();

    @Property(tries = 10_000)
    void randomCharactersEndInAModelOrLocatedErrors(@ForAll("characterSoup") String text) {
        assertEndsInModelOrLocatedErrors(text);
    }

    @Property(tries = 10_000)
    void randomTokenSequencesEndInAModelOrLocatedErrors(@ForAll("tokenSequences") String text) {
        assertEndsInModelOrLocatedErrors(text);
    }

    /** Mutations must leave some files valid and break others, or the fuzzing does not reach both outcomes. */
    @Property(tries = 10_000)
    void mutatedValidFilesEndInAModelOrLocatedErrors(@ForAll("mutatedFiles") String text) {
        boolean valid = assertEndsInModelOrLocatedErrors(text);

        Statistics.label("outcome").collect(valid ? "model" : "errors")
                .coverage(coverage -> {
                    coverage.check("model").percentage(p -> p > 5);
                    coverage.check("errors").percentage(p -> p > 50);
                });
    }

    @Provide
    Arbitrary<String> characterSoup() {
        return Arbitraries.strings().withChars(RSL_CHARS.toCharArray()).ofMaxLength(400);
    }

    @Provide
    Arbitrary<String> tokenSequences() {
        return Arbitraries.of(TOKENS).list().ofMaxSize(80).map(tokens -> String.join(" ", tokens));
    }

    @Provide
    Arbitrary<String> mutatedFiles() {
        return Arbitraries.longs().map(seed -> mutate(new Random(seed)));
    }

    /** Whether {@code text} gave a model; fails the property on an exception or an unlocated error. */
    private static boolean assertEndsInModelOrLocatedErrors(String text) {
        ParseResult result = GridConfigs.parse(text, "fuzz.rsl");

        if (result.isValid()) {
            GridModel model = result.orElseThrow();
            assertThat(GridConfigs.parse(GridConfigs.print(model), "fuzz.rsl").orElseThrow()).isEqualTo(model);
            return true;
        }
        long lines = text.chars().filter(c -> c == '\n').count() + 1;
        assertThat(result.diagnostics()).isNotEmpty().allSatisfy(diagnostic -> {
            assertThat(diagnostic.file()).isEqualTo("fuzz.rsl");
            assertThat(diagnostic.line()).isBetween(1, (int) lines);
            assertThat(diagnostic.column()).isPositive();
            assertThat(diagnostic.message()).isNotBlank();
            assertThat(diagnostic.format()).startsWith("fuzz.rsl:" + diagnostic.line() + ":" + diagnostic.column() + ": error: ");
        });
        return false;
    }

    /** A valid file with one to six random edits: deletions, insertions, duplications, swaps. */
    private static String mutate(Random random) {
        StringBuilder text = new StringBuilder(SEEDS.get(random.nextInt(SEEDS.size())));
        int edits = 1 + random.nextInt(6);
        for (int i = 0; i < edits && text.length() > 0; i++) {
            int at = random.nextInt(text.length());
            int length = Math.min(text.length() - at, 1 + random.nextInt(random.nextBoolean() ? 3 : 40));
            switch (random.nextInt(5)) {
                case 0 -> text.delete(at, at + length);
                case 1 -> text.insert(at, TOKENS.get(random.nextInt(TOKENS.size())));
                case 2 -> text.insert(at, text.substring(at, at + length));
                case 3 -> text.setCharAt(at, RSL_CHARS.charAt(random.nextInt(RSL_CHARS.length())));
                default -> {
                    int other = random.nextInt(text.length());
                    char c = text.charAt(at);
                    text.setCharAt(at, text.charAt(other));
                    text.setCharAt(other, c);
                }
            }
        }
        return text.toString();
    }

    private static List<String> seeds() {
        List<String> seeds = new ArrayList<>();
        GridConfigs.BUNDLED_EXAMPLES.forEach(example -> seeds.add(GridConfigs.bundledText(example)));
        seeds.add("""
                +
                ( &(type = grid) (name = "g") (default_rtt_ms = 50) (rsl_substitution = (S "s1") (T $(S)#"-2"))
                   (levels = (heavy_wan mst) (light_wan spt) (lan binomial) (cluster multicast) (host binomial))
                   (thresholds_ms = (host 0.1) (cluster 0.5) (lan 3) (light_wan 20)) )
                ( &(type = subjob) (label = $(S)) (count = 3) (hosts = "h1:2" 'h2') (uplink_mbps = 10)
                   (environment = (GLOBUS_LAN_ID "l") (GLOBUS_DUROC_SUBJOB_INDEX 0)) (arguments = "a" "b") )
                ( &(type = subjob) (label = $(T)) (site = $(T)) (wan_group = w) (fabric = udp_multicast) )
                ( &(type = link) (between = $(S) $(T)) (rtt_ms = 10) (jitter_ms = 1) (loss = 0.1) (direction = one_way) )
                """);
        return List.copyOf(seeds);
    }
}
