package dev.canopy.multicast.internal.reliable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class LeafWindowTest {

    private final List<String> retransmitted = new ArrayList<>();
    /** Timeout fixed at 100 (floor = ceiling), so a packet sent at t is due at t + 100. */
    private final LeafWindow window = new LeafWindow(4, 64, new int[] {3, 5, 7}, new RetransmitTimeout(100, 100));

    @Test
    void aPacketIsFreedWhenEveryLeafAcknowledgesIt() {
        addSent(0, 100);
        addSent(1, 100);
        window.acknowledged(3, 2, 0);
        window.acknowledged(5, 1, 0);
        assertThat(window.releaseCovered()).isZero();
        window.acknowledged(7, 2, 0);
        assertThat(window.releaseCovered()).isEqualTo(1);
        assertThat(window.inUse()).isEqualTo(1);
        window.acknowledged(5, 2, 0);
        assertThat(window.releaseCovered()).isEqualTo(1);
        assertThat(window.inUse()).isZero();
    }

    @Test
    void aTimeoutRetransmitsToExactlyTheLeavesWhoseAckIsMissing() {
        addSent(0, 100);
        addSent(1, 200);
        window.acknowledged(3, 2, 0);
        window.acknowledged(5, 1, 0);
        assertThat(window.expire(150, this::record)).isEqualTo(1);
        assertThat(retransmitted).containsExactly("7<-0");
        assertThat(window.expire(250, this::record)).isEqualTo(2);
        assertThat(retransmitted).containsExactly("7<-0", "5<-1", "7<-1");
        assertThat(window.inUse()).isZero();
        assertThat(window.nextDeadline()).isEqualTo(Long.MAX_VALUE);
    }

    /** A burst that expires together goes to each leaf as one run (sent as few datagrams), not packet by packet. */
    @Test
    void anExpiredBurstGoesToEachLeafAsOneRunOfWhatItMisses() {
        List<String> calls = new ArrayList<>();
        LeafWindow burst = new LeafWindow(64, 64, new int[] {3, 5, 7}, new RetransmitTimeout(100, 100));
        for (int i = 0; i < 10; i++) {
            burst.add(packet(i));
            burst.markSent(i); // due at 100 to 109
        }
        burst.acknowledged(3, 10, 0);
        burst.acknowledged(5, 4, 0);
        assertThat(burst.expire(105, (leaf, from, to) -> calls.add(leaf + "<-[" + from + "," + to + ")")))
                .isEqualTo(2 + 6); // leaf 5 misses 4 and 5, leaf 7 misses 0 to 5
        assertThat(calls).containsExactly("5<-[4,6)", "7<-[0,6)");
        assertThat(burst.inUse()).isEqualTo(4);
        assertThat(burst.nextDeadline()).isEqualTo(106);
    }

    @Test
    void aNakIsRepairedAtOnceToThatLeafOnlyWithThePacketsHeldAndSent() {
        for (int i = 0; i < 4; i++) {
            addSent(i, 1_000);
        }
        window.acknowledged(3, 4, 0);
        window.acknowledged(5, 4, 0);
        window.acknowledged(7, 1, 0); // leaf 7 has packet 0, misses 1 and 2, has 3 queued
        assertThat(window.repair(7, 3, this::record)).isEqualTo(2);
        assertThat(retransmitted).containsExactly("7<-1", "7<-2");
        assertThat(window.releaseCovered()).isEqualTo(3); // 0 to 2 covered by every leaf; 3 waits for 7's ACK
        assertThat(window.repair(7, 3, this::record)).isZero(); // asked again: already sent
        assertThat(window.repair(9, 3, this::record)).isZero(); // not a leaf of this window
        assertThat(window.expire(2_000, this::record)).isEqualTo(1);
        assertThat(retransmitted).containsExactly("7<-1", "7<-2", "7<-3");
    }

    @Test
    void aNakBeyondWhatWasSentRepairsOnlyTheSentPackets() {
        addSent(0, 1_000);
        window.add(packet(1)); // not sent yet: it goes by multicast
        assertThat(window.repair(3, 5, this::record)).isEqualTo(1);
        assertThat(retransmitted).containsExactly("3<-0");
    }

    @Test
    void aFullWindowIsFreedByRetransmittingItsOldestPacket() {
        for (int i = 0; i < 4; i++) {
            window.add(packet(i, 64)); // four full slots of 64 bytes
            window.markSent(900);
        }
        assertThat(window.isFull()).isTrue();
        window.acknowledged(3, 1, 0);
        assertThat(window.retransmitHead(this::record)).isEqualTo(2);
        assertThat(retransmitted).containsExactly("5<-0", "7<-0");
        assertThat(window.isFull()).isFalse();
    }

    /** The window holds bytes, 4 x 64 here: small packets take only their length, and the ring wraps around. */
    @Test
    void smallPacketsShareTheWindowsBytesAndTheRingWraps() {
        for (int i = 0; i < 5; i++) {
            addSent(i, 1_000); // 40 bytes each: 200 of 256
        }
        assertThat(window.isFull()).isTrue(); // no room left for a packet of 64
        window.acknowledged(3, 2, 0);
        window.acknowledged(5, 2, 0);
        window.acknowledged(7, 2, 0);
        assertThat(window.releaseCovered()).isEqualTo(2); // bytes 0 to 80 free again: the next goes at 0
        assertThat(window.isFull()).isFalse();
        addSent(5, 1_000);
        assertThat(window.isFull()).isTrue(); // 40 to 80 is too small for 64
        for (long sequence = 2; sequence < 6; sequence++) {
            assertThat(PacketCodec.sequence(window.packet(sequence))).isEqualTo(sequence);
        }
    }

    @Test
    void unsentPacketsHaveNoDeadlineAndAreNotFreed() {
        window.add(packet(0));
        window.acknowledged(3, 5, 0);
        window.acknowledged(5, 5, 0);
        window.acknowledged(7, 5, 0);
        assertThat(window.releaseCovered()).isZero();
        assertThat(window.nextDeadline()).isEqualTo(Long.MAX_VALUE);
        window.markSent(0);
        assertThat(window.releaseCovered()).isEqualTo(1);
    }

    @Test
    void theTimeoutLearnsFromAckRoundTripsButNotFromRetransmittedPackets() {
        RetransmitTimeout timeout = new RetransmitTimeout(100);
        LeafWindow learning = new LeafWindow(4, 64, new int[] {3}, timeout);
        learning.add(packet(0));
        learning.markSent(0);
        learning.acknowledged(3, 1, 1_000); // a 1,000 round trip
        assertThat(timeout.nanos()).isEqualTo(3_000); // 1,000 + 4 x 500
        learning.releaseCovered();
        learning.add(packet(1));
        learning.markSent(2_000);
        assertThat(learning.nextDeadline()).isEqualTo(5_000);
        learning.retransmitHead(this::record);
        learning.acknowledged(3, 2, 900_000); // covers a retransmitted packet: no sample
        assertThat(timeout.nanos()).isEqualTo(3_000);
    }

    @Test
    void aLazyAckIsSampledAsTheRoundTripOfTheOldestPacketItCovers() {
        RetransmitTimeout timeout = new RetransmitTimeout(100, 1_000_000);
        LeafWindow learning = new LeafWindow(8, 64, new int[] {3}, timeout);
        for (int i = 0; i < 4; i++) {
            learning.add(packet(i));
            learning.markSent(i * 10_000L);
        }
        learning.acknowledged(3, 4, 31_000); // packet 3 waited 1,000 for it, packet 0 31,000
        assertThat(timeout.nanos()).isEqualTo(31_000 + 4 * 15_500);
    }

    /** Sends packet {@code sequence} so that it is due at {@code deadline}. */
    private void addSent(long sequence, long deadline) {
        window.add(packet(sequence));
        window.markSent(deadline - 100);
    }

    private static ByteBuffer packet(long sequence) {
        return packet(sequence, PacketCodec.HEADER_BYTES);
    }

    private static ByteBuffer packet(long sequence, int length) {
        ByteBuffer packet = ByteBuffer.allocate(length);
        PacketCodec.writeData(packet, new CommunicatorId(1, 1), 0, sequence, 0, 0);
        return packet;
    }

    private void record(int leaf, long from, long to) {
        for (long sequence = from; sequence < to; sequence++) {
            retransmitted.add(leaf + "<-" + sequence);
        }
    }
}
