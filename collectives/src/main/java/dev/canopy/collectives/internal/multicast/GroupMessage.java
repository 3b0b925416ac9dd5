package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.data.MalformedMessageException;
import io.vertx.core.buffer.Buffer;
import java.util.Arrays;
import java.util.List;

/**
 * The one message format of the policy-managed groups ({@link GroupCollectives}): what a root multicasts on a
 * group, and the few point-to-point words of their management.
 *
 * <pre>
 *   offset 0   int   MAGIC ("CGRP")
 *   offset 4   byte  kind: DATA (pieces for the targets), ANNOUNCE (a dynamic group for the targets), READY
 *                    (a target joined), DONE (a target has its piece), PIECE (one target's piece, point-to-point)
 *   offset 5   long  operation: the communicator's operation number (the same on every member)
 *   offset 13  int   k: the number of targets (DATA, ANNOUNCE), else 0
 *   offset 17  int   targets[k], ascending
 *   then       int   p: the number of pieces: k, or 1 for one piece shared by every target (DATA), else 0
 *              int   lengths[p], then the pieces back to back (DATA; PIECE has one piece)
 * </pre>
 *
 * Big-endian. A receiver checks every field before use: magic, kind, the operation it expects, that the targets
 * are exactly the ones it was called with, that no length is negative and that the lengths add up to the bytes
 * that follow; anything else is a {@link MalformedMessageException} naming the rule.
 */
final class GroupMessage {

    static final int MAGIC = 0x43475250;
    static final byte DATA = 1;
    static final byte ANNOUNCE = 2;
    static final byte READY = 3;
    static final byte DONE = 4;
    static final byte PIECE = 5;
    private static final int HEADER = 17;

    /** A message read back and checked: its kind, targets and pieces. */
    record Decoded(byte kind, long operation, int[] targets, List<Buffer> pieces) {

        /** Target {@code rank}'s piece (the shared one when there is one piece). */
        Buffer pieceOf(int rank) {
            if (pieces.size() == 1) {
                return pieces.get(0);
            }
            int index = Arrays.binarySearch(targets, rank);
            if (index < 0) {
                throw new MalformedMessageException("group message of operation " + operation + " has no piece for rank "
                        + rank);
            }
            return pieces.get(index);
        }
    }

    private GroupMessage() {
    }

    static Buffer encode(byte kind, long operation, int[] targets, List<Buffer> pieces) {
        long total = HEADER + 4L * targets.length + 4 + 4L * pieces.size();
        for (Buffer piece : pieces) {
            total += piece.length();
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a group message of " + total + " bytes does not fit one buffer");
        }
        Buffer message = Buffer.buffer((int) total).appendInt(MAGIC).appendByte(kind).appendLong(operation)
                .appendInt(targets.length);
        for (int target : targets) {
            message.appendInt(target);
        }
        message.appendInt(pieces.size());
        pieces.forEach(piece -> message.appendInt(piece.length()));
        pieces.forEach(message::appendBuffer);
        return message;
    }

    /** A word of management: READY or DONE of {@code operation}. */
    static Buffer word(byte kind, long operation) {
        return encode(kind, operation, new int[0], List.of());
    }

    /**
     * {@code message} checked to be of {@code kind} and {@code operation}, for exactly {@code targets} (null: any
     * targets, for words); {@code ranks} is the communicator's size.
     */
    static Decoded decode(Buffer message, byte kind, long operation, int[] targets, int ranks) {
        if (message == null || message.length() < HEADER + 4) {
            throw malformed(operation, "is " + (message == null ? "missing" : message.length() + " bytes long")
                    + ", shorter than its " + (HEADER + 4) + "-byte header");
        }
        if (message.getInt(0) != MAGIC) {
            throw malformed(operation, "starts with 0x" + Integer.toHexString(message.getInt(0)) + ", not the magic 0x"
                    + Integer.toHexString(MAGIC) + " (members called different collectives?)");
        }
        byte gotKind = message.getByte(4);
        long gotOperation = message.getLong(5);
        if (gotKind != kind || gotOperation != operation) {
            throw malformed(operation, "is of kind " + gotKind + " for operation " + gotOperation + ", expected kind "
                    + kind + " for operation " + operation + " (members called different collectives, or with other"
                    + " policies?)");
        }
        int k = message.getInt(13);
        if (k < 0 || k > ranks || message.length() < HEADER + 4L * k + 4) {
            throw malformed(operation, "announces " + k + " targets in " + message.length() + " bytes for " + ranks
                    + " ranks");
        }
        int[] got = new int[k];
        for (int i = 0; i < k; i++) {
            got[i] = message.getInt(HEADER + 4 * i);
        }
        if (targets != null && !Arrays.equals(got, targets)) {
            throw malformed(operation, "is for targets " + Arrays.toString(got) + ", but this member was called with "
                    + Arrays.toString(targets) + " (every member must give the same target set)");
        }
        int countAt = HEADER + 4 * k;
        int p = message.getInt(countAt);
        if (p < 0 || p > Math.max(1, k) || message.length() < countAt + 4 + 4L * p) {
            throw malformed(operation, "announces " + p + " pieces for " + k + " targets in " + message.length()
                    + " bytes");
        }
        long offset = countAt + 4 + 4L * p;
        Buffer[] pieces = new Buffer[p];
        for (int i = 0; i < p; i++) {
            int length = message.getInt(countAt + 4 + 4 * i);
            if (length < 0 || offset + length > message.length()) {
                throw malformed(operation, "gives piece " + i + " the length " + length + ", beyond its "
                        + message.length() + " bytes");
            }
            pieces[i] = message.getBuffer((int) offset, (int) offset + length);
            offset += length;
        }
        if (offset != message.length()) {
            throw malformed(operation, "carries " + (message.length() - offset) + " bytes after its pieces");
        }
        return new Decoded(gotKind, gotOperation, got, List.of(pieces));
    }

    private static MalformedMessageException malformed(long operation, String what) {
        return new MalformedMessageException("group message of operation " + operation + " " + what);
    }
}
