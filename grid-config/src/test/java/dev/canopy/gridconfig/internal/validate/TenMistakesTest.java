package dev.canopy.gridconfig.internal.validate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A file with twelve different mistakes (syntax, unknown attribute, level, algorithm and fabric,
 * duplicate label, zero count, undefined variable, unknown site, thresholds not increasing,
 * negative RTT, wrong operator) gets twelve located errors in one run.
 */
class TenMistakesTest {

    private static final String FILE = """
            +
            ( &(type = grid) (name = "broken")
               (levels = (heavy_wna hlot) (light_wan hlott))
               (thresholds_ms = (host 0.05) (cluster 0.3) (lan 50) (light_wan 30)) )
            ( &(type = subjob) (label = "a") (count = 0) (fabric = infiniband) )
            ( &(type = subjob) (label = "a") (cuont = 2) (cluster = $(CLUSTR)) )
            ( &(type = subjob) (label = "b") (count < 3) )
            ( &(type = link) (between = "a" "c") (rtt_ms = -5) )
            ( &(type = subjob) (label = "d") (count = ) )
            """;

    @Test
    void everyMistakeIsReportedWithItsLineAndColumnInFileOrder() {
        assertThat(Check.errors(FILE)).containsExactly(
                "t.rsl:3:15: error: unknown level \"heavy_wna\"; expected one of heavy_wan, light_wan, lan, cluster, host; did you mean \"heavy_wan\"?",
                "t.rsl:3:42: error: unknown light_wan algorithm \"hlott\"; expected one of hlot, flat, binomial, mst, spt, chain, binary, auto; did you mean \"hlot\"?",
                "t.rsl:4:57: error: thresholds_ms must increase from host to light_wan, but light_wan 30 is not above lan 50",
                "t.rsl:5:43: error: count must be at least 1, got 0",
                "t.rsl:5:56: error: unknown fabric \"infiniband\"; expected one of ib, udp_multicast, none",
                "t.rsl:6:21: error: subjob label \"a\" is used twice; the first is at 5:21",
                "t.rsl:6:35: error: unknown attribute \"cuont\" in a subjob section; did you mean \"count\"?",
                "t.rsl:6:57: error: undefined variable \"CLUSTR\"; define it with (rsl_substitution = (CLUSTR value)) in the grid section or earlier in this section",
                "t.rsl:7:41: error: attribute \"count\" takes \"=\", not \"<\"",
                "t.rsl:8:33: error: link names unknown site \"c\"; sites are a, b, d",
                "t.rsl:8:48: error: rtt_ms must be >= 0, got -5",
                "t.rsl:9:41: error: attribute \"count\" has no value after '='");
    }
}
