package dev.canopy.collectives.internal.engine;

import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.core.internal.security.Printable;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * The header every collective message carries in front of its body (the payload of a
 * {@code COLLECTIVE} frame), big-endian:
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |   Kind code   | Operation code|        Step (unsigned)        |  0
 * +---------------+---------------+-------------------------------+
 * |                 Sequence (per communicator)                   |  4
 * +---------------------------------------------------------------+
 * |                     Plan id (64 bits)                         |  8
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                           Body ...                            | 16
 * </pre>
 *
 * <ul>
 *   <li>kind: {@link Kind#code()}: 0 data (the last or only chunk of a message), 1 abort, 2 data
 *       chunk with more to follow;</li>
 *   <li>operation: {@link Operation#code()};</li>
 *   <li>step: which message of the operation (stage, sub-operation);</li>
 *   <li>sequence: the collective's sequence number on its communicator;</li>
 *   <li>plan id: which plan the sender runs the collective with, {@code CollectivePlan.epoch()}: a
 *       live plan's published epoch (1, 2, ...), or a digest of the inputs of a configured plan. Only
 *       compared for equality: members on different plans fail the collective instead of mixing
 *       trees. (Named "epoch" on the wire before; it is an id, an epoch only for live plans.)</li>
 * </ul>
 *
 * An abort body is {@code int failedRank} (-1 when no rank failed), {@code int originRank}, then the
 * UTF-8 reason, at most {@value #MAX_REASON_BYTES} bytes. Decoding checks the length, the codes and
 * the abort body and throws {@link MalformedMessageException} for anything else; the ranks are
 * checked against the communicator by {@link Exchange}.
 */
public final class CollectiveFrame {

    /** What a collective frame carries, with its fixed wire code. */
    public enum Kind {
        DATA(0), ABORT(1), CONTINUED(2);

        private final int code;

        Kind(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        /** The kind of a wire code; an unknown one is a {@link MalformedMessageException}. */
        public static Kind fromCode(int code) {
            for (Kind kind : values()) {
                if (kind.code == code) {
                    return kind;
                }
            }
            throw new MalformedMessageException("collective frame kind " + code
                    + " is none of data (0), abort (1), continued data (2)");
        }
    }

    static final int KIND_OFFSET = 0;
    static final int OPERATION_OFFSET = 1;
    static final int STEP_OFFSET = 2;
    static final int SEQUENCE_OFFSET = 4;
    static final int PLAN_OFFSET = 8;
    static final int HEADER_LENGTH = 16;
    /** Offsets in an abort body. */
    private static final int FAILED_RANK_OFFSET = 0;
    private static final int ORIGIN_RANK_OFFSET = 4;
    private static final int ABORT_REASON_OFFSET = 8;
    /** Longest abort reason on the wire; longer ones are cut when sent (at most 3 UTF-8 bytes per char). */
    static final int MAX_REASON_BYTES = 2048;
    private static final int MAX_REASON_CHARS = MAX_REASON_BYTES / 3;

    /** Who sent which message of which collective, as read from a header. */
    public record Header(Kind kind, Operation operation, int step, int sequence, long plan) {
    }

    /** What an abort frame says: the failed rank (-1 if none), who noticed, and why. */
    public record Abort(int failedRank, int originRank, String reason) {
    }

    private CollectiveFrame() {
    }

    /** A data frame: {@code header.kind()} is {@link Kind#DATA} or {@link Kind#CONTINUED}. */
    public static Buffer data(Header header, Buffer body) {
        return headerBuffer(header, body.length()).appendBuffer(body);
    }

    public static Buffer abort(Header header, Abort abort) {
        String reason = abort.reason().length() > MAX_REASON_CHARS
                ? abort.reason().substring(0, MAX_REASON_CHARS - 3) + "..." : abort.reason();
        byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
        return headerBuffer(new Header(Kind.ABORT, header.operation(), header.step(), header.sequence(), header.plan()),
                ABORT_REASON_OFFSET + bytes.length)
                .appendInt(abort.failedRank()).appendInt(abort.originRank()).appendBytes(bytes);
    }

    /** Reads the header of a received frame; throws {@link MalformedMessageException} for a short frame or unknown code. */
    public static Header header(Buffer frame) {
        if (frame.length() < HEADER_LENGTH) {
            throw new MalformedMessageException("collective frame of " + frame.length() + " bytes is shorter than its "
                    + HEADER_LENGTH + "-byte header");
        }
        return new Header(Kind.fromCode(frame.getUnsignedByte(KIND_OFFSET)),
                Operation.fromCode(frame.getUnsignedByte(OPERATION_OFFSET)), frame.getUnsignedShort(STEP_OFFSET),
                frame.getInt(SEQUENCE_OFFSET), frame.getLong(PLAN_OFFSET));
    }

    /**
     * The body, copied once into a buffer of its own. Not a slice, although nothing writes to a
     * received frame: bodies travel on as they are (an all-to-all or an exclusive scan returns the
     * buffer it received to the user, {@link Exchange} appends continued chunks to the first), and a
     * Vert.x slice cannot grow ({@code appendBuffer} throws). Use {@link #bodyView} where the bytes
     * are copied before anything else sees them.
     */
    public static Buffer body(Buffer frame) {
        int length = frame.length() - HEADER_LENGTH;
        return Buffer.buffer(length).appendBuffer(frame, HEADER_LENGTH, length);
    }

    /**
     * The body as a slice of {@code frame}: no copy, so only valid while {@code frame} does not
     * change, and it cannot grow. For readers that copy what they keep.
     */
    static Buffer bodyView(Buffer frame) {
        return frame.slice(HEADER_LENGTH, frame.length());
    }

    /**
     * The body of an abort frame (whose header was read). Control characters in the reason become
     * {@code ?} ({@link Printable}), so a reason cannot forge log lines.
     */
    public static Abort abortBody(Buffer frame) {
        int bodyLength = frame.length() - HEADER_LENGTH;
        if (bodyLength < ABORT_REASON_OFFSET || bodyLength - ABORT_REASON_OFFSET > MAX_REASON_BYTES) {
            throw new MalformedMessageException("abort body of " + bodyLength + " bytes; an abort body has "
                    + ABORT_REASON_OFFSET + " bytes of ranks and a reason of at most " + MAX_REASON_BYTES + " bytes");
        }
        int failedRank = frame.getInt(HEADER_LENGTH + FAILED_RANK_OFFSET);
        int originRank = frame.getInt(HEADER_LENGTH + ORIGIN_RANK_OFFSET);
        if (failedRank < -1 || originRank < 0) {
            throw new MalformedMessageException("abort names failed rank " + failedRank + " and origin rank " + originRank
                    + "; ranks are >= 0 (-1: no rank failed)");
        }
        String reason = frame.getString(HEADER_LENGTH + ABORT_REASON_OFFSET, frame.length(), "UTF-8");
        return new Abort(failedRank, originRank, Printable.of(reason, MAX_REASON_BYTES));
    }

    private static Buffer headerBuffer(Header header, int bodyLength) {
        return Buffer.buffer(HEADER_LENGTH + bodyLength)
                .appendByte((byte) header.kind().code())
                .appendByte((byte) header.operation().code())
                .appendUnsignedShort(header.step())
                .appendInt(header.sequence())
                .appendLong(header.plan());
    }
}
