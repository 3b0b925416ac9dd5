package dev.canopy.multicast.reliable;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The substrate's packets, on the fabric and on the reliable link. Big-endian, one offset per field;
 * every field is checked by {@link #validate} before anything else reads it.
 *
 * <pre>
 *  0               1               2               3
 * +-------------------------------+---------------+---------------+
 * |        Magic 0x434D "CM"      |   Version 1   |     Type      |  0
 * +-------------------------------+---------------+---------------+
 * |                    Communicator context                      |  4
 * +---------------------------------------------------------------+
 * |                    Job key (64 bits)                          |  8
 * |                                                               |
 * +---------------------------------------------------------------+
 * |              Root: rank whose stream this belongs to          | 16
 * +---------------------------------------------------------------+
 * |                 Sender: rank that wrote the packet            | 20
 * +---------------------------------------------------------------+
 * |  DATA: sequence (64)   FEEDBACK: acked up to (64)             | 24
 * |  ABORT: failed rank (32), node id length (16), node id, reason |
 * +---------------------------------------------------------------+
 * |  DATA: message length  FEEDBACK: credit limit (64)            | 32
 * +---------------------------------------------------------------+
 * |  DATA: fragment offset                                        | 36
 * +---------------------------------------------------------------+
 * |  DATA: fragment bytes ...                                     | 40
 * </pre>
 *
 * DATA carries one fragment of a message: the fragment holds {@code min(capacity, length - offset)}
 * bytes, so every fragment but the last is full and a message's fragments have consecutive sequence
 * numbers. FEEDBACK tells a parent (root or co-root) that the sender has every packet below
 * "acked up to", and may be sent packets below "credit limit". ABORT names a failed rank.
 */
final class PacketCodec {

    static final short MAGIC = 0x434D;
    static final byte VERSION = 1;
    static final byte DATA = 1;
    static final byte FEEDBACK = 2;
    static final byte ABORT = 3;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 2;
    static final int TYPE_OFFSET = 3;
    static final int CONTEXT_OFFSET = 4;
    static final int JOB_OFFSET = 8;
    static final int ROOT_OFFSET = 16;
    static final int SENDER_OFFSET = 20;
    static final int SEQUENCE_OFFSET = 24;
    static final int MESSAGE_LENGTH_OFFSET = 32;
    static final int FRAGMENT_OFFSET_OFFSET = 36;
    static final int HEADER_BYTES = 40;
    static final int ACKED_OFFSET = 24;
    static final int CREDIT_OFFSET = 32;
    static final int FEEDBACK_BYTES = 40;
    static final int FAILED_RANK_OFFSET = 24;
    static final int NODE_LENGTH_OFFSET = 28;
    static final int NODE_OFFSET = 30;

    private PacketCodec() {
    }

    static void writeHeader(ByteBuffer out, byte type, CommunicatorId communicator, int root, int sender) {
        out.putShort(MAGIC_OFFSET, MAGIC).put(VERSION_OFFSET, VERSION).put(TYPE_OFFSET, type)
                .putInt(CONTEXT_OFFSET, communicator.context()).putLong(JOB_OFFSET, communicator.job())
                .putInt(ROOT_OFFSET, root).putInt(SENDER_OFFSET, sender);
    }

    /** Writes a DATA packet's header into {@code out} (positions untouched); the fragment follows at 32. */
    static void writeData(ByteBuffer out, CommunicatorId communicator, int root, long sequence, int messageLength,
                          int offset) {
        writeHeader(out, DATA, communicator, root, root);
        out.putLong(SEQUENCE_OFFSET, sequence).putInt(MESSAGE_LENGTH_OFFSET, messageLength)
                .putInt(FRAGMENT_OFFSET_OFFSET, offset);
    }

    static byte[] feedback(CommunicatorId communicator, int root, int sender, long ackedUpTo, long creditLimit) {
        ByteBuffer out = ByteBuffer.allocate(FEEDBACK_BYTES);
        writeHeader(out, FEEDBACK, communicator, root, sender);
        out.putLong(ACKED_OFFSET, ackedUpTo).putLong(CREDIT_OFFSET, creditLimit);
        return out.array();
    }

    static byte[] abort(CommunicatorId communicator, int sender, int failedRank, String node, String reason) {
        byte[] nodeBytes = node.getBytes(StandardCharsets.UTF_8);
        byte[] reasonBytes = reason.getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocate(NODE_OFFSET + nodeBytes.length + reasonBytes.length);
        writeHeader(out, ABORT, communicator, sender, sender);
        out.putInt(FAILED_RANK_OFFSET, failedRank).putShort(NODE_LENGTH_OFFSET, (short) nodeBytes.length);
        out.position(NODE_OFFSET);
        out.put(nodeBytes).put(reasonBytes);
        return out.array();
    }

    static byte type(ByteBuffer packet) {
        return packet.get(TYPE_OFFSET);
    }

    static int root(ByteBuffer packet) {
        return packet.getInt(ROOT_OFFSET);
    }

    static int sender(ByteBuffer packet) {
        return packet.getInt(SENDER_OFFSET);
    }

    static long sequence(ByteBuffer packet) {
        return packet.getLong(SEQUENCE_OFFSET);
    }

    static int messageLength(ByteBuffer packet) {
        return packet.getInt(MESSAGE_LENGTH_OFFSET);
    }

    static int fragmentOffset(ByteBuffer packet) {
        return packet.getInt(FRAGMENT_OFFSET_OFFSET);
    }

    static int fragmentLength(ByteBuffer packet) {
        return packet.limit() - HEADER_BYTES;
    }

    static long ackedUpTo(ByteBuffer packet) {
        return packet.getLong(ACKED_OFFSET);
    }

    static long creditLimit(ByteBuffer packet) {
        return packet.getLong(CREDIT_OFFSET);
    }

    static int failedRank(ByteBuffer packet) {
        return packet.getInt(FAILED_RANK_OFFSET);
    }

    static String failedNode(ByteBuffer packet) {
        return string(packet, NODE_OFFSET, Short.toUnsignedInt(packet.getShort(NODE_LENGTH_OFFSET)));
    }

    static String abortReason(ByteBuffer packet) {
        int start = NODE_OFFSET + Short.toUnsignedInt(packet.getShort(NODE_LENGTH_OFFSET));
        return string(packet, start, packet.limit() - start);
    }

    /**
     * Why {@code packet} (bytes 0 to limit) is malformed for this communicator, or null when every field is
     * in range: magic, version, type, job and context, ranks, and for DATA the fragment against its message.
     */
    static String validate(ByteBuffer packet, CommunicatorId communicator, int size, int fragmentCapacity,
                           int maxMessageBytes) {
        int length = packet.limit();
        if (length < HEADER_BYTES) {
            return "a " + length + "-byte packet is shorter than the " + HEADER_BYTES + "-byte header";
        }
        if (packet.getShort(MAGIC_OFFSET) != MAGIC || packet.get(VERSION_OFFSET) != VERSION) {
            return "bad magic or version";
        }
        int context = packet.getInt(CONTEXT_OFFSET);
        long job = packet.getLong(JOB_OFFSET);
        if (context != communicator.context() || job != communicator.job()) {
            return "context " + context + " of job " + Long.toHexString(job) + " is not this communicator ("
                    + communicator + ")";
        }
        if (!isRank(root(packet), size) || !isRank(sender(packet), size)) {
            return "root " + root(packet) + " or sender " + sender(packet) + " is not a rank of " + size;
        }
        return switch (type(packet)) {
            case DATA -> validateData(packet, fragmentCapacity, maxMessageBytes);
            case FEEDBACK -> length != FEEDBACK_BYTES || ackedUpTo(packet) < 0 || creditLimit(packet) < 0
                    ? "FEEDBACK of " + length + " bytes with acked " + ackedUpTo(packet) + ", credit "
                            + creditLimit(packet)
                    : null;
            case ABORT -> length < NODE_OFFSET || !isRank(failedRank(packet), size)
                    || NODE_OFFSET + Short.toUnsignedInt(packet.getShort(NODE_LENGTH_OFFSET)) > length
                    ? "ABORT with a bad failed rank or node id" : null;
            default -> "unknown type " + type(packet);
        };
    }

    private static String validateData(ByteBuffer packet, int fragmentCapacity, int maxMessageBytes) {
        long sequence = sequence(packet);
        int messageLength = messageLength(packet);
        int offset = fragmentOffset(packet);
        int fragment = fragmentLength(packet);
        if (sequence < 0 || messageLength < 0 || messageLength > maxMessageBytes || offset < 0 || offset > messageLength
                || (offset == messageLength && messageLength > 0) || offset % fragmentCapacity != 0) {
            return "DATA sequence " + sequence + ", message length " + messageLength + " (at most " + maxMessageBytes
                    + "), offset " + offset + " out of range";
        }
        int expected = Math.min(fragmentCapacity, messageLength - offset);
        if (fragment != expected) {
            return "DATA fragment of " + fragment + " bytes at offset " + offset + " of " + messageLength
                    + " where " + expected + " are due";
        }
        return null;
    }

    private static boolean isRank(int rank, int size) {
        return rank >= 0 && rank < size;
    }

    private static String string(ByteBuffer packet, int start, int length) {
        byte[] bytes = new byte[length];
        packet.get(start, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
