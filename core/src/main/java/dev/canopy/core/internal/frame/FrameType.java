package dev.canopy.core.internal.frame;

import java.util.Optional;

/**
 * What a frame carries. The wire code of each type is fixed forever: new types get new codes, and
 * a decoder that meets a code it does not know reports {@link MalformedFrame.Reason#UNKNOWN_TYPE}.
 */
public enum FrameType {
    /** A communicator's point-to-point payload. */
    DATA(1),
    /** Traffic internal to a collective operation. */
    COLLECTIVE(2),
    /** A latency probe; the receiver answers with {@link #PROBE_REPLY}. */
    PROBE_REQUEST(3),
    PROBE_REPLY(4),
    /** Filler of a bandwidth probe train. */
    BANDWIDTH_PROBE(5),
    /** First frame on every TCP connection: the connecting transport introduces itself. */
    HELLO(6),
    ACK(7),
    NAK(8),
    /** Runtime control traffic (membership, plans, shutdown). */
    CONTROL(9),
    /** Failure detection between nodes: heartbeats, leave notices and communicator revocations. */
    LIVENESS(10);

    private static final FrameType[] BY_CODE = new FrameType[16];

    static {
        for (FrameType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    private final int code;

    FrameType(int code) {
        this.code = code;
    }

    /** The byte written at {@link FrameCodec#TYPE_OFFSET}. */
    public int code() {
        return code;
    }

    public static Optional<FrameType> fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? Optional.ofNullable(BY_CODE[code]) : Optional.empty();
    }
}
