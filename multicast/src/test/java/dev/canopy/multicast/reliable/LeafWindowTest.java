package dev.canopy.multicast.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class LeafWindowTest {

    private final List<String> retransmitted = new ArrayList<>();
    private final LeafWindow window = new LeafWindow(4, 64, new int[] {3, 5, 7});

    @Test
    void aPacketIsFreedWhenEveryLeafAcknowledgesIt() {
        addSent(0, 100);
        addSent(1, 100);
        window.acknowledged(3, 2);
        window.acknowledged(5, 1);
        assertThat(window.releaseCovered()).isZero();
        window.acknowledged(7, 2);
        assertThat(window.releaseCovered()).isEqualTo(1);
        assertThat(window.inUse()).isEqualTo(1);
        window.acknowledged(5, 2);
        assertThat(window.releaseCovered()).isEqualTo(1);
        assertThat(window.inUse()).isZero();
    }

    @Test
    void aTimeoutRetransmitsToExactlyTheLeavesWhoseAckIsMissing() {
        addSent(0, 100);
        addSent(1, 200);
        window.acknowledged(3, 2);
        window.acknowledged(5, 1);
        assertThat(window.expire(150, this::record)).isEqualTo(1);
        assertThat(retransmitted).containsExactly("7<-0");
        assertThat(window.expire(250, this::record)).isEqualTo(2);
        assertThat(retransmitted).containsExactly("7<-0", "5<-1", "7<-1");
        assertThat(window.inUse()).isZero();
        assertThat(window.nextDeadline()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aFullWindowIsFreedByRetransmittingItsOldestPacket() {
        for (int i = 0; i < 4; i++) {
            addSent(i, 1_000);
        }
        assertThat(window.isFull()).isTrue();
        window.acknowledged(3, 1);
        assertThat(window.retransmitHead(this::record)).isEqualTo(2);
        assertThat(retransmitted).containsExactly("5<-0", "7<-0");
        assertThat(window.isFull()).isFalse();
    }

    @Test
    void unsentPacketsHaveNoDeadlineAndAreNotFreed() {
        window.add(packet(0));
        window.acknowledged(3, 5);
        window.acknowledged(5, 5);
        window.acknowledged(7, 5);
        assertThat(window.releaseCovered()).isZero();
        assertThat(window.nextDeadline()).isEqualTo(Long.MAX_VALUE);
        window.markSent(10);
        assertThat(window.releaseCovered()).isEqualTo(1);
    }

    private void addSent(long sequence, long deadline) {
        window.add(packet(sequence));
        window.markSent(deadline);
    }

    private static ByteBuffer packet(long sequence) {
        ByteBuffer packet = ByteBuffer.allocate(PacketCodec.HEADER_BYTES);
        PacketCodec.writeData(packet, new CommunicatorId(1, 1), 0, sequence, 0, 0);
        return packet;
    }

    private void record(int leaf, ByteBuffer packet) {
        retransmitted.add(leaf + "<-" + PacketCodec.sequence(packet));
    }
}
