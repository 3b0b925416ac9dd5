package dev.canopy.collectives.engine;

import io.vertx.core.buffer.Buffer;

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

    /** Who sent which message of which collective, as read from a header. */
    public record Header(Kind kind, Operation operation, int step, int sequence, long epoch) {
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
        Buffer body = Buffer.buffer().appendInt(abort.failedRank()).appendInt(abort.originRank())
                .appendString(abort.reason());
        return headerBuffer(new Header(Kind.ABORT, header.operation(), header.step(), header.sequence(), header.epoch()),
                body.length()).appendBuffer(body);
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

    public static Buffer body(Buffer frame) {
        return frame.getBuffer(HEADER_LENGTH, frame.length());
    }

    public static Abort abortBody(Buffer frame) {
        Buffer body = body(frame);
        return new Abort(body.getInt(0), body.getInt(4), body.getString(8, body.length()));
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
