package dev.canopy.core.internal.failure;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The payload of a {@link FrameType#LIVENESS} frame, big-endian. The frame's source is the sender's WORLD
 * rank; its context is the communicator a revocation is about (0 otherwise).
 *
 * <pre>
 *  offset  size  field
 *       0     1  kind        0 = heartbeat, 1 = goodbye, 2 = revoke, 3 = excluded
 *  goodbye:
 *       1     4  count       how many failed members the leaver knows of
 *       5   4*n  world ranks of those members, in the order it learned of them
 *  revoke:
 *       1     4  world rank  of the member whose failure caused the revocation, -1 when none is known
 *  excluded: nothing more ("I consider you failed and close my connection to you")
 * </pre>
 */
public sealed interface LivenessMessage {

    int KIND_OFFSET = 0;
    int COUNT_OFFSET = 1;
    int RANKS_OFFSET = 5;
    int CAUSE_OFFSET = 1;

    /** "I am alive." */
    record Heartbeat() implements LivenessMessage {
    }

    /** "I am leaving on purpose; these members had failed before" (the root causes of a leave after a failure). */
    record Goodbye(List<Integer> failedWorldRanks) implements LivenessMessage {
        public Goodbye {
            failedWorldRanks = List.copyOf(failedWorldRanks);
        }
    }

    /** "Communicator {@code context} is revoked", caused by the failure of {@code causeWorldRank} (-1 if unknown). */
    record Revoke(int causeWorldRank) implements LivenessMessage {
    }

    /**
     * "I consider you failed and am closing my connection to you": so the receiver does not take that close for
     * the sender's failure (it is its own exclusion; silence then fails the sender after the heartbeat timeout).
     */
    record Excluded() implements LivenessMessage {
    }

    static Buffer encode(LivenessMessage message) {
        if (message instanceof Excluded) {
            return Buffer.buffer(1).appendByte((byte) 3);
        }
        if (message instanceof Goodbye goodbye) {
            Buffer buffer = Buffer.buffer(RANKS_OFFSET + 4 * goodbye.failedWorldRanks().size()).appendByte((byte) 1)
                    .appendInt(goodbye.failedWorldRanks().size());
            goodbye.failedWorldRanks().forEach(buffer::appendInt);
            return buffer;
        }
        if (message instanceof Revoke revoke) {
            return Buffer.buffer(5).appendByte((byte) 2).appendInt(revoke.causeWorldRank());
        }
        return Buffer.buffer(1).appendByte((byte) 0);
    }

    /**
     * Reads and validates a payload from the wire: world ranks must lie in {@code 0 .. worldSize-1}.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    static LivenessMessage decode(Frame frame, int worldSize) {
        Buffer payload = frame.payload();
        if (payload.length() < 1) {
            throw new IllegalArgumentException("empty liveness frame");
        }
        int kind = payload.getByte(KIND_OFFSET);
        switch (kind) {
            case 0:
                return new Heartbeat();
            case 1: {
                requireLength(payload, RANKS_OFFSET, "goodbye");
                int count = payload.getInt(COUNT_OFFSET);
                if (count < 0 || count > worldSize || payload.length() != RANKS_OFFSET + 4 * count) {
                    throw new IllegalArgumentException("goodbye lists " + count + " failed members in "
                            + payload.length() + " bytes (job of " + worldSize + ")");
                }
                List<Integer> ranks = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    ranks.add(requireRank(payload.getInt(RANKS_OFFSET + 4 * i), worldSize));
                }
                return new Goodbye(ranks);
            }
            case 2: {
                requireLength(payload, 5, "revoke");
                int cause = payload.getInt(CAUSE_OFFSET);
                return new Revoke(cause == -1 ? -1 : requireRank(cause, worldSize));
            }
            case 3:
                return new Excluded();
            default:
                throw new IllegalArgumentException("liveness kind " + kind + " is none of heartbeat (0), goodbye (1),"
                        + " revoke (2), excluded (3)");
        }
    }

    private static void requireLength(Buffer payload, int length, String what) {
        if (payload.length() < length) {
            throw new IllegalArgumentException(what + " of " + payload.length() + " bytes, shorter than " + length);
        }
    }

    private static int requireRank(int rank, int worldSize) {
        if (rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("world rank " + rank + " outside the job's 0.." + (worldSize - 1));
        }
        return rank;
    }
}
