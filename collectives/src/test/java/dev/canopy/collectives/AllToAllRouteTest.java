package dev.canopy.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AllToAllRouteTest {

    @Test
    void autoGoesThroughTheSiteCoordinatorsOnlyAcrossSites() {
        assertThat(AllToAllRoute.AUTO.throughSiteCoordinators(1)).isFalse();
        assertThat(AllToAllRoute.AUTO.throughSiteCoordinators(2)).isTrue();
    }

    @Test
    void sitesAndPairwiseHoldWhateverTheSites() {
        assertThat(AllToAllRoute.SITES.throughSiteCoordinators(1)).isTrue();
        assertThat(AllToAllRoute.SITES.throughSiteCoordinators(8)).isTrue();
        assertThat(AllToAllRoute.PAIRWISE.throughSiteCoordinators(1)).isFalse();
        assertThat(AllToAllRoute.PAIRWISE.throughSiteCoordinators(8)).isFalse();
    }

    @Test
    void theDefaultSettingsRouteAutomatically() {
        assertThat(CollectiveSettings.defaults().allToAllRoute()).isEqualTo(AllToAllRoute.AUTO);
        assertThat(CollectiveSettings.defaults().withAllToAllRoute(AllToAllRoute.PAIRWISE).withCompletion(Completion.AGREED)
                .allToAllRoute()).isEqualTo(AllToAllRoute.PAIRWISE);
    }
}
