package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.FrameType;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** Which module of a node a frame belongs to; {@link FrameDemux} hands each family its own handlers. */
public enum FrameFamily {
    /**
     * The communicators: point-to-point, collective and control traffic. Messages must not be lost:
     * frames that arrive before the communicators exist (a faster peer passed the start barrier
     * first) wait for them.
     */
    COMMUNICATION(EnumSet.of(FrameType.DATA, FrameType.COLLECTIVE, FrameType.CONTROL), true),
    /** Network measurement: latency and bandwidth probes; a probe that finds no prober is lost like one that timed out. */
    MEASUREMENT(EnumSet.of(FrameType.PROBE_REQUEST, FrameType.PROBE_REPLY, FrameType.BANDWIDTH_PROBE), false),
    /** Failure detection: heartbeats, leave notices, revocations; a heartbeat before the detector runs is not needed. */
    LIVENESS(EnumSet.of(FrameType.LIVENESS), false);

    private final Set<FrameType> types;
    private final boolean waitsForItsModule;

    FrameFamily(Set<FrameType> types, boolean waitsForItsModule) {
        this.types = types;
        this.waitsForItsModule = waitsForItsModule;
    }

    /** Whether frames that arrive before the family's module set its handler are kept for it. */
    public boolean waitsForItsModule() {
        return waitsForItsModule;
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
