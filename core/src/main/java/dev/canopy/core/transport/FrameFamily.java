package dev.canopy.core.transport;

import dev.canopy.core.frame.FrameType;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** Which module of a node a frame belongs to; {@link FrameDemux} hands each family its own handlers. */
public enum FrameFamily {
    /** The communicators: point-to-point, collective and control traffic. */
    COMMUNICATION(EnumSet.of(FrameType.DATA, FrameType.COLLECTIVE, FrameType.CONTROL)),
    /** Network measurement: latency and bandwidth probes. */
    MEASUREMENT(EnumSet.of(FrameType.PROBE_REQUEST, FrameType.PROBE_REPLY, FrameType.BANDWIDTH_PROBE));

    private final Set<FrameType> types;

    FrameFamily(Set<FrameType> types) {
        this.types = types;
    }

    /** The family a frame type belongs to; empty for transport-internal types (HELLO, ACK, NAK). */
    public static Optional<FrameFamily> of(FrameType type) {
        for (FrameFamily family : values()) {
            if (family.types.contains(type)) {
                return Optional.of(family);
            }
        }
        return Optional.empty();
    }
}
