package dev.canopy.multicast.internal.reliable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class RetransmitTimeoutTest {

    @Test
    void staysAtTheConfiguredTimeoutWhileAcksComeFast() {
        RetransmitTimeout timeout = new RetransmitTimeout(20_000_000);
        assertThat(timeout.nanos()).isEqualTo(20_000_000);
        for (int i = 0; i < 100; i++) {
            timeout.sample(300_000);
        }
        assertThat(timeout.nanos()).isEqualTo(20_000_000);
    }

    @Test
    void growsWithSlowAcksAndComesBackWhenTheyAreFastAgain() {
        RetransmitTimeout timeout = new RetransmitTimeout(20_000_000);
        for (int i = 0; i < 50; i++) {
            timeout.sample(i % 2 == 0 ? 30_000_000 : 60_000_000);
        }
        assertThat(timeout.nanos()).isBetween(60_000_000L, 120_000_000L);
        for (int i = 0; i < 200; i++) {
            timeout.sample(1_000_000);
        }
        assertThat(timeout.nanos()).isEqualTo(20_000_000);
    }

    @Test
    void neverExceedsTheCeiling() {
        RetransmitTimeout timeout = new RetransmitTimeout(1_000);
        timeout.sample(Long.MAX_VALUE / 4);
        assertThat(timeout.nanos()).isEqualTo(1_000L * RetransmitTimeout.CEILING_FACTOR);
        assertThatThrownBy(() -> new RetransmitTimeout(10, 5)).isInstanceOf(IllegalArgumentException.class);
    }
}
