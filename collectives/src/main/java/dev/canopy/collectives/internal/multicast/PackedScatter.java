package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.data.MalformedMessageException;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * The one message of a scatter over a broadcast path: the root packs every rank's piece behind a header of
 * their lengths, every member receives the whole message and copies out its own piece; or, where the root
 * found the pieces too large to multicast, a marker saying the plan's tree scatter carries them.
 *
 * <pre>
 *   offset 0  int  MAGIC ("CSCT")
 *   offset 4  byte kind: PIECES (1) or TREE (2)
 *   offset 5  int  n: the number of pieces (PIECES; 0 for TREE)
 *   offset 9  int  length of piece 0 .. piece n-1 (PIECES)
 *   then           the pieces in rank order, back to back
 * </pre>
 *
 * Big-endian, as every Canopy frame. Receivers check everything before use: the magic, the kind, that there
 * is one piece per rank of the communicator, that no length is negative and that the lengths add up to the
 * bytes that follow; a message that breaks a rule is a {@link MalformedMessageException} naming it.
 */
final class PackedScatter {

    static final int MAGIC = 0x43534354;
    static final byte PIECES = 1;
    static final byte TREE = 2;
    static final int MAGIC_OFFSET = 0;
    static final int KIND_OFFSET = 4;
    static final int COUNT_OFFSET = 5;
    static final int LENGTHS_OFFSET = 9;

    /** What a receiver got: its piece, or word that the tree scatter carries the pieces. */
    record Received(boolean byTree, Buffer piece) {
    }

    private PackedScatter() {
    }

    /** The header's size for {@code pieces} pieces. */
    static long headerBytes(int pieces) {
        return LENGTHS_OFFSET + 4L * pieces;
    }

    /** Every piece behind its length, in rank order. */
    static Buffer pack(List<Buffer> pieces) {
        long total = headerBytes(pieces.size());
        for (Buffer piece : pieces) {
            total += piece.length();
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a packed scatter of " + total + " bytes does not fit one buffer");
        }
        Buffer packed = Buffer.buffer((int) total);
        packed.appendInt(MAGIC).appendByte(PIECES).appendInt(pieces.size());
        for (Buffer piece : pieces) {
            packed.appendInt(piece.length());
        }
        for (Buffer piece : pieces) {
            packed.appendBuffer(piece);
        }
        return packed;
    }

    /** The marker: the plan's tree scatter carries the pieces. */
    static Buffer byTree() {
        return Buffer.buffer((int) headerBytes(0)).appendInt(MAGIC).appendByte(TREE).appendInt(0);
    }

    /** Rank {@code rank}'s piece (a copy) of a packed message for a communicator of {@code ranks} members. */
    static Received unpack(Buffer message, int ranks, int rank) {
        if (message == null || message.length() < LENGTHS_OFFSET) {
            throw malformed("is " + (message == null ? "missing" : message.length() + " bytes long") + ", shorter than its "
                    + LENGTHS_OFFSET + "-byte header");
        }
        int magic = message.getInt(MAGIC_OFFSET);
        if (magic != MAGIC) {
            throw malformed("starts with 0x" + Integer.toHexString(magic) + ", not the magic 0x"
                    + Integer.toHexString(MAGIC) + " (members started different collectives?)");
        }
        byte kind = message.getByte(KIND_OFFSET);
        int count = message.getInt(COUNT_OFFSET);
        if (kind == TREE) {
            if (count != 0 || message.length() != LENGTHS_OFFSET) {
                throw malformed("is a tree marker with " + count + " pieces and " + message.length() + " bytes");
            }
            return new Received(true, null);
        }
        if (kind != PIECES) {
            throw malformed("has the unknown kind " + kind);
        }
        if (count != ranks) {
            throw malformed("holds " + count + " pieces for a communicator of " + ranks + " members");
        }
        if (rank < 0 || rank >= count) {
            throw malformed("has no piece for rank " + rank);
        }
        long header = headerBytes(count);
        if (message.length() < header) {
            throw malformed("is " + message.length() + " bytes long, shorter than its " + header + "-byte header of "
                    + count + " lengths");
        }
        long mine = -1;
        long total = header;
        for (int piece = 0; piece < count; piece++) {
            int length = message.getInt(LENGTHS_OFFSET + 4 * piece);
            if (length < 0) {
                throw malformed("gives piece " + piece + " the negative length " + length);
            }
            if (piece == rank) {
                mine = total;
            }
            total += length;
        }
        if (total != message.length()) {
            throw malformed("announces " + (total - header) + " bytes of pieces but carries " + (message.length() - header));
        }
        int length = message.getInt(LENGTHS_OFFSET + 4 * rank);
        return new Received(false, message.getBuffer((int) mine, (int) mine + length));
    }

    private static MalformedMessageException malformed(String what) {
        return new MalformedMessageException("packed scatter message " + what);
    }
}
