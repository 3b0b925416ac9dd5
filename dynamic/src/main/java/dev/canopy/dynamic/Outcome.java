package dev.canopy.dynamic;

import dev.canopy.core.internal.security.Printable;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What a group's leader passes on inside its group or to the other leader: one status byte, then the data
 * ({@link #OK}) or why the leader could not get it ({@link #FAILED} or {@link #TIMED_OUT}, UTF-8). So when the transfer between the
 * groups fails, every member of the group still finishes the same intra-group collective and fails with the
 * leader's reason, and the group's collectives stay in step.
 */
final class Outcome {

    static final byte OK = 0;
    static final byte FAILED = 1;
    /** Failed for a {@link DynamicTimeoutException}: every member fails with one too. */
    static final byte TIMED_OUT = 2;
    private static final int MAX_REASON_BYTES = 4096;

    private Outcome() {
    }

    static Buffer ok(Buffer data) {
        return Buffer.buffer(data.length() + 1).appendByte(OK).appendBuffer(data);
    }

    static Buffer failed(Throwable cause) {
        String reason = String.valueOf(cause.getMessage());
        byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
        Buffer out = Buffer.buffer().appendByte(cause instanceof DynamicTimeoutException ? TIMED_OUT : FAILED);
        return out.appendBytes(bytes, 0, Math.min(bytes.length, MAX_REASON_BYTES));
    }

    /** {@code data} wrapped as OK, or its failure wrapped as FAILED: never a failed future. */
    static Future<Buffer> of(Future<Buffer> data) {
        return data.map(Outcome::ok).otherwise(Outcome::failed);
    }

    /** Why a FAILED or TIMED_OUT outcome failed; empty for an OK one. */
    static Optional<String> reason(Buffer outcome) {
        if (outcome == null || outcome.length() == 0 || outcome.getByte(0) == OK) {
            return Optional.empty();
        }
        return Optional.of(Printable.of(outcome.getString(1, outcome.length(), StandardCharsets.UTF_8.name()),
                MAX_REASON_BYTES));
    }

    /** The data of an OK outcome; an {@link InterCommunicatorException} naming {@code what} for a FAILED or malformed one. */
    static Buffer open(Buffer outcome, String what) {
        if (outcome == null || outcome.length() == 0) {
            throw new InterCommunicatorException(what + ": the group leader sent an empty outcome");
        }
        byte status = outcome.getByte(0);
        if (status == OK) {
            return outcome.slice(1, outcome.length());
        }
        if (status == FAILED || status == TIMED_OUT) {
            String reason = Printable.of(outcome.getString(1, outcome.length(), StandardCharsets.UTF_8.name()), MAX_REASON_BYTES);
            if (status == TIMED_OUT) {
                throw new DynamicTimeoutException(what + ": " + reason);
            }
            throw new InterCommunicatorException(what + " failed at the group's leader: " + reason);
        }
        throw new InterCommunicatorException(what + ": the group leader sent an outcome with unknown status " + status);
    }
}
