package dev.canopy.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AllToAllRouteTest {

    @Test
    void autoRelaysThroughTheSiteCoordinatorsOnlyAcrossSites() {
        assertThat(AllToAllRoute.AUTO.resolvedFor(1)).isEqualTo(AllToAllRoute.PAIRWISE);
        assertThat(AllToAllRoute.AUTO.resolvedFor(2)).isEqualTo(AllToAllRoute.RELAYED);
        assertThat(AllToAllRoute.AUTO.resolvedFor(8)).isEqualTo(AllToAllRoute.RELAYED);
    }

    @Test
    void forcedRoutesHoldWhateverTheSites() {
        for (AllToAllRoute route : new AllToAllRoute[] {AllToAllRoute.RELAYED, AllToAllRoute.SITES, AllToAllRoute.PAIRWISE}) {
            assertThat(route.resolvedFor(1)).isEqualTo(route);
            assertThat(route.resolvedFor(8)).isEqualTo(route);
        }
    }

    @Test
    void theDefaultSettingsRouteAutomatically() {
        assertThat(CollectiveSettings.defaults().allToAllRoute()).isEqualTo(AllToAllRoute.AUTO);
        assertThat(CollectiveSettings.defaults().relayHopMs()).isEqualTo(CollectiveSettings.DEFAULT_RELAY_HOP_MS);
        CollectiveSettings changed = CollectiveSettings.defaults().withAllToAllRoute(AllToAllRoute.PAIRWISE)
                .withRelayHopMs(5).withCompletion(Completion.AGREED);
        assertThat(changed.allToAllRoute()).isEqualTo(AllToAllRoute.PAIRWISE);
        assertThat(changed.relayHopMs()).isEqualTo(5);
    }

    @Test
    void aRelayHopCostsAFiniteNonNegativeTime() {
        for (double invalid : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> CollectiveSettings.defaults().withRelayHopMs(invalid))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("relayHopMs");
        }
    }
}
