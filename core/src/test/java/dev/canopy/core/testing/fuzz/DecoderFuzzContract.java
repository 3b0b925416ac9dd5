package dev.canopy.core.testing.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every decoder's fuzz test runs: each campaign of {@link #campaigns()} with
 * {@link FuzzCampaign#DEFAULT_INPUTS} on every build and {@link FuzzCampaign#EXHAUSTIVE_INPUTS} under the
 * {@code exhaustive} tag, finding no error but the decoder's documented one, with valid inputs that
 * round-trip and mutated ones that are rejected. Subclasses name their decoders and add the tests of
 * single rules.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class DecoderFuzzContract {

    /** One campaign per decoder this test fuzzes. */
    protected abstract Stream<FuzzCampaign<?>> campaigns();

    @ParameterizedTest(name = "{0}")
    @MethodSource("campaigns")
    @Timeout(60)
    public void decoder(FuzzCampaign<?> campaign) {
        FuzzCampaign.Outcome outcome = campaign.run(FuzzCampaign.DEFAULT_INPUTS);
        assertThat(outcome.roundTrips()).as("valid round trips, seed %d", outcome.seed()).isPositive();
        assertThat(outcome.rejected()).as("rejected inputs, seed %d", outcome.seed()).isPositive();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("campaigns")
    @Tag("exhaustive")
    @Timeout(600)
    public void decoderExhaustively(FuzzCampaign<?> campaign) {
        assertThat(campaign.run(FuzzCampaign.EXHAUSTIVE_INPUTS).rejected()).isPositive();
    }
}
