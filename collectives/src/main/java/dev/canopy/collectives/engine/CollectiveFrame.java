package dev.canopy.collectives.engine;

import dev.canopy.core.security.Printable;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * The header every collective message carries in front of its body, big-endian:
 *
 * <pre>
 *  offset  size  field
 *       0     1  kind       0 = data (last or only chunk), 1 = abort, 2 = data chunk, more follow
 *       1     1  operation  {@link Operation#ordinal()}
 *       2     2  step       which message of the operation (stage, sub-operation)
 *       4     4  sequence   the collective's per-communicator sequence number
 *       8     8  epoch      the plan epoch every member must share
 *      16     -  body
 * </pre>
 *
 * An abort body is {@code int failedRank} (-1 when no rank failed), {@code int originRank}, then the
 * UTF-8 reason.
 */
public final class CollectiveFrame {

    public enum Kind { DATA, ABORT, CONTINUED }

    static final int KIND_OFFSET = 0;
    static final int OPERATION_OFFSET = 1;
    static final int STEP_OFFSET = 2;
    static final int SEQUENCE_OFFSET = 4;
    static final int EPOCH_OFFSET = 8;
    static final int HEADER_LENGTH = 16;
    /** Offsets in an abort body. */
    private static final int FAILED_RANK_OFFSET = 0;
    private static final int ORIGIN_RANK_OFFSET = 4;
    private static final int ABORT_REASON_OFFSET = 8;

    /** Who sent which message of which collective, as read from a header. */
    public record Header(Kind kind, Operation operation, int step, int sequence, long epoch) {
    }

    /** What an abort frame says: the failed rank (-1 if none), who noticed, and why. */
    public record Abort(int failedRank, int originRank, String reason) {
    }

    /** The longest abort reason kept from the wire. */
    static final int MAX_ABORT_REASON_CHARS = 1000;

    private CollectiveFrame() {
    }

    /** A data frame: {@code header.kind()} is {@link Kind#DATA} or {@link Kind#CONTINUED}. */
    public static Buffer data(Header header, Buffer body) {
        return headerBuffer(header, body.length()).appendBuffer(body);
    }

    public static Buffer abort(Header header, Abort abort) {
        byte[] reason = abort.reason().getBytes(StandardCharsets.UTF_8);
        return headerBuffer(new Header(Kind.ABORT, header.operation(), header.step(), header.sequence(), header.epoch()),
                ABORT_REASON_OFFSET + reason.length)
                .appendInt(abort.failedRank()).appendInt(abort.originRank()).appendBytes(reason);
    }

    public static Header header(Buffer frame) {
        if (frame.length() < HEADER_LENGTH) {
            throw new IllegalArgumentException("collective frame of " + frame.length() + " bytes is shorter than its "
                    + HEADER_LENGTH + "-byte header");
        }
        int kind = frame.getByte(KIND_OFFSET);
        if (kind < 0 || kind >= Kind.values().length) {
            throw new IllegalArgumentException("collective frame kind " + kind
                    + " is none of data (0), abort (1), continued data (2)");
        }
        return new Header(Kind.values()[kind], Operation.fromCode(frame.getByte(OPERATION_OFFSET)),
                frame.getUnsignedShort(STEP_OFFSET), frame.getInt(SEQUENCE_OFFSET), frame.getLong(EPOCH_OFFSET));
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

    /** The abort's ranks and reason; the reason came from the wire, so it is cut and made printable before any log sees it. */
    public static Abort abortBody(Buffer frame) {
        return new Abort(frame.getInt(HEADER_LENGTH + FAILED_RANK_OFFSET), frame.getInt(HEADER_LENGTH + ORIGIN_RANK_OFFSET),
                Printable.of(frame.getString(HEADER_LENGTH + ABORT_REASON_OFFSET, frame.length()), MAX_ABORT_REASON_CHARS));
    }

    private static Buffer headerBuffer(Header header, int bodyLength) {
        return Buffer.buffer(HEADER_LENGTH + bodyLength)
                .appendByte((byte) header.kind().ordinal())
                .appendByte((byte) header.operation().ordinal())
                .appendUnsignedShort(header.step())
                .appendInt(header.sequence())
                .appendLong(header.epoch());
    }
}
