package dev.canopy.core.internal.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.testing.ManualClock;
import org.junit.jupiter.api.Test;

class RateLimitedWarningsTest {

    private final ManualClock clock = new ManualClock();
    private final RateLimitedWarnings warnings = new RateLimitedWarnings(1_000, 2, clock);

    @Test
    void oneWarningPerSourceAndIntervalThenTheSuppressedCount() {
        assertThat(warnings.attempt("a").emit()).isTrue();
        for (int i = 0; i < 999; i++) {
            assertThat(warnings.attempt("a").emit()).isFalse();
        }
        assertThat(warnings.attempt("b").emit()).as("another source has its own budget").isTrue();
        clock.setNanos(1_000);
        assertThat(warnings.attempt("a")).isEqualTo(new RateLimitedWarnings.Decision(true, 999));
        assertThat(warnings.attempt("a").emit()).isFalse();
    }

    @Test
    void onlyTheMostRecentSourcesAreRemembered() {
        warnings.attempt("a");
        warnings.attempt("b");
        warnings.attempt("c");
        assertThat(warnings.attempt("a").emit()).as("a was forgotten: at most 2 sources are kept").isTrue();
    }

    @Test
    void wireTextIsCutAndMadePrintable() {
        assertThat(Printable.of("fine text", 100)).isEqualTo("fine text");
        assertThat(Printable.of("line\nforged INFO line\u001b[31m", 100)).isEqualTo("line?forged INFO line?[31m");
        assertThat(Printable.of("x".repeat(5_000), 10)).isEqualTo("xxxxxxxxxx...(4990 more characters)");
    }
}
