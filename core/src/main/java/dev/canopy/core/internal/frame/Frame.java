package dev.canopy.core.internal.frame;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One message on the wire: a fixed header and an opaque payload. The layout is described in
 * {@link FrameCodec}.
 *
 * @param type        what the frame carries
 * @param job         the 64-bit job id, see {@link #jobId(String)}
 * @param context     the communicator context id (0 for traffic outside any communicator)
 * @param reserved    32 bits kept for a later protocol version: always 0 (the constructor rejects
 *                    anything else, and decoders reject a frame whose field is not 0). Formerly named
 *                    "epoch", but every sender wrote 0 and no receiver read it.
 * @param source      the sender's world rank, {@link #UNKNOWN_RANK} when it has none yet
 * @param destination the receiver's world rank, {@link #UNKNOWN_RANK} when unknown
 * @param tag         the user or collective tag
 * @param sequence    a sender-chosen sequence number (per sender and context)
 * @param payload     the payload; never null, possibly empty
 */
public record Frame(
        FrameType type,
        long job,
        int context,
        int reserved,
        int source,
        int destination,
        int tag,
        long sequence,
        Buffer payload) {

    public static final int UNKNOWN_RANK = -1;

    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    public Frame {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(payload, "payload");
        if (reserved != 0) {
            throw new IllegalArgumentException("the reserved header field must be 0, not " + reserved);
        }
    }

    /**
     * The job id of a job name: FNV-1a 64 over the name's UTF-8 bytes, so every process of a job,
     * in any JVM, computes the same id without talking to anyone.
     */
    public static long jobId(String jobName) {
        long hash = FNV_OFFSET_BASIS;
        for (byte b : jobName.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= FNV_PRIME;
        }
        return hash;
    }

    /** Bytes this frame takes on the wire, header included. */
    public int encodedLength() {
        return FrameCodec.HEADER_LENGTH + payload.length();
    }

    /** The same frame with another sequence number. */
    public Frame withSequence(long newSequence) {
        return new Frame(type, job, context, reserved, source, destination, tag, newSequence, payload);
    }

    /** The same frame with another payload. */
    public Frame withPayload(Buffer newPayload) {
        return new Frame(type, job, context, reserved, source, destination, tag, sequence, newPayload);
    }

    @Override
    public String toString() {
        return type + "{job=" + Long.toHexString(job) +  " ctx=" + context + " " + source + "->"
                + destination + " tag=" + tag + " seq=" + sequence + " payload=" + payload.length() + "B}";
    }
}
