package dev.canopy.multicast.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class LatencyModelTest {

    private static final LatencyModel MODEL = LatencyModel.PUBLISHED_INFINIBAND;

    @Test
    void aThousandAndTwentyFourMembersWantAHundredAndTwentyEightCoRoots() {
        int s = MODEL.bestSubGroupSize(1024);
        System.out.printf("model, 1024 members: sub-groups of %d (%d co-roots), root %.1f us per message, "
                        + "latency %.1f us vs binomial %.1f us: %.2fx%n", s, LatencyModel.coRoots(1024, s),
                MODEL.rootMicrosPerMessage(1024, s), MODEL.singleRootMicros(), MODEL.binomialMicros(1024),
                MODEL.latencyRatioToBinomial(1024));
        assertThat(s).isEqualTo(8);
        assertThat(LatencyModel.coRoots(1024, s) + 1).isEqualTo(128);
        assertThat(MODEL.latencyRatioToBinomial(1024)).isBetween(3.86, 4.86);
    }

    @Test
    void tooManyCoRootsLoadTheRootWithReliableSendsTooFewWithAcks() {
        double best = MODEL.rootMicrosPerMessage(1024, 8);
        assertThat(MODEL.rootMicrosPerMessage(1024, 1)).isGreaterThan(best);
        assertThat(MODEL.rootMicrosPerMessage(1024, 1024)).isGreaterThan(best);
        LatencyModel cheapAcks = new LatencyModel(0.5, 1, 11, 6, 2.8, 0.05);
        assertThat(cheapAcks.bestSubGroupSize(1024)).isGreaterThan(8);
    }

    @Test
    void aCoRootsReliablePathShortensWithFewerCoRoots() {
        assertThat(MODEL.coRootReliableMicros(1024, 8)).isGreaterThan(MODEL.coRootReliableMicros(1024, 64));
        assertThat(MODEL.binomialMicros(1)).isZero();
        assertThat(MODEL.binomialMicros(8)).isEqualTo(18.0);
    }
}
