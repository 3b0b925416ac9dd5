package dev.canopy.core.transport;

import dev.canopy.core.frame.Frame;
import dev.canopy.core.frame.FrameType;
import dev.canopy.core.node.NodeAddress;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The first frame on every TCP connection: who opened it. The address is the one the sender
 * advertises (its member znode holds the same), so the receiver can tell which member a connection
 * comes from; the label is for log lines. Payload, big-endian:
 *
 * <pre>
 * offset  size  field
 *      0     2  TCP port (unsigned)
 *      2     2  UDP port (unsigned)
 *      4     2  host length H in bytes (unsigned)
 *      6     H  host, UTF-8
 *    6+H  rest  label, UTF-8
 * </pre>
 *
 * The frame's header fields other than its type are 0, and its ranks are unknown (-1).
 */
record Hello(NodeAddress address, String label) {

    static final int TCP_PORT_OFFSET = 0;
    static final int UDP_PORT_OFFSET = 2;
    static final int HOST_LENGTH_OFFSET = 4;
    static final int HOST_OFFSET = 6;

    Hello {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(label, "label");
    }

    Frame toFrame() {
        byte[] host = address.host().getBytes(StandardCharsets.UTF_8);
        Buffer payload = Buffer.buffer(HOST_OFFSET + host.length + label.length())
                .appendUnsignedShort(address.tcpPort())
                .appendUnsignedShort(address.udpPort())
                .appendUnsignedShort(host.length)
                .appendBytes(host)
                .appendString(label, StandardCharsets.UTF_8.name());
        return new Frame(FrameType.HELLO, 0, 0, 0, Frame.UNKNOWN_RANK, Frame.UNKNOWN_RANK, 0, 0, payload);
    }

    /** Reads a HELLO payload; a payload that does not announce an address is refused with the reason. */
    static Hello fromPayload(Buffer payload) {
        if (payload.length() < HOST_OFFSET) {
            throw new IllegalArgumentException("HELLO payload of " + payload.length() + " bytes is shorter than the "
                    + HOST_OFFSET + " bytes of ports and host length");
        }
        int hostLength = payload.getUnsignedShort(HOST_LENGTH_OFFSET);
        if (hostLength == 0 || HOST_OFFSET + hostLength > payload.length()) {
            throw new IllegalArgumentException("HELLO announces a host of " + hostLength + " bytes in a payload of "
                    + payload.length() + " bytes");
        }
        String host = payload.getString(HOST_OFFSET, HOST_OFFSET + hostLength, StandardCharsets.UTF_8.name());
        String label = payload.getString(HOST_OFFSET + hostLength, payload.length(), StandardCharsets.UTF_8.name());
        NodeAddress address = new NodeAddress(host, payload.getUnsignedShort(TCP_PORT_OFFSET),
                payload.getUnsignedShort(UDP_PORT_OFFSET));
        return new Hello(address, label);
    }

    @Override
    public String toString() {
        return label + "@" + address.host() + ":" + address.tcpPort();
    }
}
