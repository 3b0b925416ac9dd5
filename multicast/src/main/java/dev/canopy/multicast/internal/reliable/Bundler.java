package dev.canopy.multicast.internal.reliable;

import java.nio.ByteBuffer;

/**
 * Packs a root's next sendable packets into one datagram of at most the fabric's MTU, the way JGroups' transfer-queue
 * bundler packs the messages that queued while it was sending: a lone packet goes as it is (no added bytes, no added
 * delay); two or more consecutive ones go as one BATCH, each whole with its own header and sequence number, so the
 * window, ACKs, NAKs and retransmission still count packets; the datagram takes one credit
 * ({@link DatagramCredits}). One pre-allocated datagram buffer, reused.
 * Owner loop only.
 */
final class Bundler {

    private final byte[] datagram;
    private final CommunicatorId communicator;
    private final int root;

    Bundler(int mtu, CommunicatorId communicator, int root) {
        this.datagram = new byte[mtu];
        this.communicator = communicator;
        this.root = root;
    }

    /** How many of the packets from {@code window.sent()} up to {@code end} (exclusive) fit one datagram: at least 1. */
    int fitting(LeafWindow window, long end) {
        return fitting(window, window.sent(), end);
    }

    /** How many of the held packets from {@code first} up to {@code end} (exclusive) fit one datagram: at least 1. */
    int fitting(LeafWindow window, long first, long end) {
        int bytes = PacketCodec.HEADER_BYTES;
        int count = 0;
        for (long sequence = first; sequence < end; sequence++) {
            int grown = bytes + PacketCodec.ENTRY_LENGTH_BYTES + window.length(sequence);
            if (count > 0 && grown > datagram.length) {
                break;
            }
            bytes = grown;
            count++;
        }
        return count;
    }

    /**
     * The datagram holding the {@code count} packets from {@code window.sent()} on (as {@link #fitting} gave): the
     * packet itself when alone, else a BATCH written into this bundler's buffer (valid until the next call).
     */
    ByteBuffer datagram(LeafWindow window, int count) {
        return datagram(window, window.sent(), count);
    }

    /** As {@link #datagram(LeafWindow, int)}, for the {@code count} held packets from {@code first} on. */
    ByteBuffer datagram(LeafWindow window, long first, int count) {
        if (count == 1) {
            return window.packet(first);
        }
        ByteBuffer out = ByteBuffer.wrap(datagram);
        PacketCodec.writeBatchHeader(out, communicator, root, first, count);
        int position = PacketCodec.HEADER_BYTES;
        for (int i = 0; i < count; i++) {
            ByteBuffer packet = window.packet(first + i);
            int length = packet.remaining();
            out.putInt(position, length);
            packet.get(packet.position(), datagram, position + PacketCodec.ENTRY_LENGTH_BYTES, length);
            position += PacketCodec.ENTRY_LENGTH_BYTES + length;
        }
        return ByteBuffer.wrap(datagram, 0, position);
    }
}
