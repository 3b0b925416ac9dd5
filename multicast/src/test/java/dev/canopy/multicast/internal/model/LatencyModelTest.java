package dev.canopy.multicast.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class LatencyModelTest {

    private static final LatencyModel MODEL = LatencyModel.PUBLISHED_INFINIBAND;

    @Test
    void aThousandAndTwentyFourMembersWantAHundredAndTwentyEightCoRoots() {
        for (int members = 8; members <= 1024; members *= 2) {
            System.out.println("model run: " + MODEL.predict(members));
        }
        LatencyModel.Prediction prediction = MODEL.predict(1024);
        assertThat(prediction.subGroupSize()).isEqualTo(8);
        assertThat(prediction.coRoots() + 1).as("sub-group heads, the root's included").isEqualTo(128);
        assertThat(prediction.latencyRatio()).isBetween(3.86, 4.86);
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
