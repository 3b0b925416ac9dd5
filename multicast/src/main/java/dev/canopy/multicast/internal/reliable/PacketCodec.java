package dev.canopy.multicast.internal.reliable;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

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
 * |  DATA, BATCH: sequence (64)    FEEDBACK, NAK: acked up to (64)| 24
 * |  ABORT: failed rank (32), node id length (16), node id, reason |
 * +---------------------------------------------------------------+
 * |  DATA: message length  BATCH: packet count                    | 32
 * |  FEEDBACK, NAK: credit limit (64)                             |
 * +---------------------------------------------------------------+
 * |  DATA: fragment offset  BATCH: 0                              | 36
 * +---------------------------------------------------------------+
 * |  DATA: fragment bytes ...                                     | 40
 * |  BATCH: count x (packet length (32), DATA packet)             |
 * |  NAK: missing up to (64)                                      |
 * </pre>
 *
 * DATA carries one fragment of a message: the fragment holds {@code min(capacity, length - offset)}
 * bytes, so every fragment but the last is full and a message's fragments have consecutive sequence
 * numbers. FEEDBACK tells a parent (root or co-root) that the sender has every packet below
 * "acked up to", and may be sent packets below "credit limit". NAK is a FEEDBACK that also asks for the
 * packets from "acked up to" to "missing up to" (exclusive) at once: the receiver saw a later packet
 * first. ABORT names a failed rank.
 *
 * <p>BATCH is a datagram, not a packet (sender-side bundling, JGroups' bundler and message batch): several
 * DATA packets of one root with consecutive sequence numbers, each whole with its own header, so each stays
 * its own unit of the window, credits, ACKs, NAKs and retransmission; its sequence is the first packet's.
 * Receivers take its packets in order as if they had come one by one. Its entries must fill it exactly.
 */
final class PacketCodec {

    static final short MAGIC = 0x434D;
    static final byte VERSION = 1;
    static final byte DATA = 1;
    static final byte FEEDBACK = 2;
    static final byte ABORT = 3;
    static final byte NAK = 5;
    static final byte BATCH = 6;

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
    static final int MISSING_END_OFFSET = 40;
    static final int NAK_BYTES = 48;
    static final int FAILED_RANK_OFFSET = 24;
    static final int NODE_LENGTH_OFFSET = 28;
    static final int NODE_OFFSET = 30;
    static final int BATCH_COUNT_OFFSET = 32;
    static final int ENTRY_LENGTH_BYTES = 4;

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

    /**
     * Writes a BATCH header into {@code out} for {@code count} packets of {@code root} from {@code firstSequence}
     * on; the entries follow at {@link #HEADER_BYTES}, each a packet length and a DATA packet.
     */
    static void writeBatchHeader(ByteBuffer out, CommunicatorId communicator, int root, long firstSequence, int count) {
        writeHeader(out, BATCH, communicator, root, root);
        out.putLong(SEQUENCE_OFFSET, firstSequence).putInt(BATCH_COUNT_OFFSET, count).putInt(FRAGMENT_OFFSET_OFFSET, 0);
    }

    /** Whether the packet carries message bytes (DATA, or a BATCH of DATA packets) rather than control. */
    static boolean carriesData(ByteBuffer packet) {
        byte type = type(packet);
        return type == DATA || type == BATCH;
    }

    static int batchCount(ByteBuffer packet) {
        return packet.getInt(BATCH_COUNT_OFFSET);
    }

    /**
     * Hands each DATA packet of a validated BATCH to {@code each}, in order, as a view of the batch's bytes (read it
     * before the batch's buffer is reused).
     */
    static void forEachInBatch(ByteBuffer batch, Consumer<ByteBuffer> each) {
        int position = HEADER_BYTES;
        for (int i = batchCount(batch); i > 0; i--) {
            int length = batch.getInt(position);
            position += ENTRY_LENGTH_BYTES;
            each.accept(batch.slice(position, length).order(batch.order()));
            position += length;
        }
    }

    static byte[] feedback(CommunicatorId communicator, int root, int sender, long ackedUpTo, long creditLimit) {
        ByteBuffer out = ByteBuffer.allocate(FEEDBACK_BYTES);
        writeHeader(out, FEEDBACK, communicator, root, sender);
        out.putLong(ACKED_OFFSET, ackedUpTo).putLong(CREDIT_OFFSET, creditLimit);
        return out.array();
    }

    /** A FEEDBACK that also asks for packets {@code [ackedUpTo, missingUpTo)} again. */
    static byte[] nak(CommunicatorId communicator, int root, int sender, long ackedUpTo, long creditLimit,
                      long missingUpTo) {
        ByteBuffer out = ByteBuffer.allocate(NAK_BYTES);
        writeHeader(out, NAK, communicator, root, sender);
        out.putLong(ACKED_OFFSET, ackedUpTo).putLong(CREDIT_OFFSET, creditLimit).putLong(MISSING_END_OFFSET, missingUpTo);
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

    static long missingUpTo(ByteBuffer packet) {
        return packet.getLong(MISSING_END_OFFSET);
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
            case BATCH -> validateBatch(packet, communicator, size, fragmentCapacity, maxMessageBytes);
            case FEEDBACK -> length != FEEDBACK_BYTES || ackedUpTo(packet) < 0 || creditLimit(packet) < 0
                    ? "FEEDBACK of " + length + " bytes with acked " + ackedUpTo(packet) + ", credit "
                            + creditLimit(packet)
                    : null;
            case NAK -> length != NAK_BYTES ? "NAK of " + length + " bytes where " + NAK_BYTES + " are due"
                    : ackedUpTo(packet) < 0 || creditLimit(packet) < 0 || missingUpTo(packet) <= ackedUpTo(packet)
                    ? "NAK with acked " + ackedUpTo(packet) + ", credit " + creditLimit(packet) + ", missing up to "
                            + missingUpTo(packet)
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

    /**
     * Every entry's length is read and checked against the bytes left before the entry is touched; each entry must be
     * a valid DATA packet of the batch's root with the next sequence number, and the entries must fill the batch.
     */
    private static String validateBatch(ByteBuffer batch, CommunicatorId communicator, int size, int fragmentCapacity,
                                        int maxMessageBytes) {
        long first = sequence(batch);
        int count = batchCount(batch);
        int length = batch.limit();
        int smallestEntry = ENTRY_LENGTH_BYTES + HEADER_BYTES;
        if (first < 0 || batch.getInt(FRAGMENT_OFFSET_OFFSET) != 0 || count < 2
                || count > (length - HEADER_BYTES) / smallestEntry) {
            return "BATCH from sequence " + first + " of " + count + " packets in " + length + " bytes out of range";
        }
        int position = HEADER_BYTES;
        for (int i = 0; i < count; i++) {
            if (length - position < ENTRY_LENGTH_BYTES) {
                return "BATCH packet " + i + " of " + count + " starts past the datagram's " + length + " bytes";
            }
            int entry = batch.getInt(position);
            position += ENTRY_LENGTH_BYTES;
            if (entry < HEADER_BYTES || entry > length - position) {
                return "BATCH packet " + i + " of " + count + " claims " + entry + " bytes at byte " + position
                        + " of " + length + " (at least " + HEADER_BYTES + ")";
            }
            ByteBuffer packet = batch.slice(position, entry);
            String problem = type(packet) != DATA ? "type " + type(packet) + " where DATA is due"
                    : root(packet) != root(batch) ? "root " + root(packet) + " in a batch of root " + root(batch)
                    : sequence(packet) != first + i ? "sequence " + sequence(packet) + " where " + (first + i) + " is due"
                    : validate(packet, communicator, size, fragmentCapacity, maxMessageBytes);
            if (problem != null) {
                return "BATCH packet " + i + " of " + count + ": " + problem;
            }
            position += entry;
        }
        if (position != length) {
            return "BATCH of " + count + " packets ends at byte " + position + " of a " + length + "-byte datagram";
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
