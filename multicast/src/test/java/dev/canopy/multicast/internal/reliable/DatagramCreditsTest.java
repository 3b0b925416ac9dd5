package dev.canopy.multicast.internal.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A credit is a receive buffer: one per datagram, however many packets it carries. */
class DatagramCreditsTest {

    /** Two buffers per receiver (3 and 5): reports are packets seen plus the 2 buffers. */
    private final DatagramCredits credits = new DatagramCredits(new int[] {3, 5}, 2);

    @Test
    void aDatagramTakesOneCreditWhateverItCarries() {
        assertThat(credits.available()).isTrue();
        credits.spend(30); // a BATCH of packets 0 to 29
        assertThat(credits.available()).isTrue();
        credits.spend(31); // a lone DATA, packet 30
        assertThat(credits.available()).isFalse();
    }

    @Test
    void aDatagramsCreditComesBackOnceTheSlowestReceiverHasSeenPastItsEnd() {
        credits.spend(30);
        credits.spend(60);
        credits.update(3, 60 + 2); // rank 3 has seen both
        credits.update(5, 29 + 2); // rank 5 has not seen packet 29 yet: the first batch may still hold its buffer
        assertThat(credits.available()).isFalse();
        credits.update(5, 30 + 2);
        assertThat(credits.available()).isTrue();
        credits.spend(90);
        assertThat(credits.available()).isFalse();
    }

    @Test
    void aLostDatagramHoldsNoCreditOnceALaterOneArrives() {
        credits.spend(30); // lost on the way to both
        credits.spend(31);
        credits.update(3, 31 + 2);
        credits.update(5, 31 + 2);
        assertThat(credits.available()).isTrue();
        credits.spend(32);
        credits.spend(33);
        assertThat(credits.available()).isFalse();
    }

    @Test
    void aRootWithNoReceiversIsNeverShortOfCredits() {
        DatagramCredits alone = new DatagramCredits(new int[0], 1);
        for (int datagram = 1; datagram <= 3; datagram++) {
            assertThat(alone.available()).isTrue();
            alone.spend(datagram);
        }
    }
}
