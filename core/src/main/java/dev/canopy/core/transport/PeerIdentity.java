package dev.canopy.core.transport;

import dev.canopy.core.internal.security.Printable;
import dev.canopy.core.node.NodeAddress;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Who a transport says it is in the handshake: the address it advertises (its member znode holds the
 * same) and its log label. The handshake's proofs cover the exact {@link #encoded} bytes, so the
 * identity a peer claims is the one it proved. Layout, big-endian:
 *
 * <pre>
 * offset  size  field
 *      0     2  TCP port (1..65535)
 *      2     2  UDP port (1..65535)
 *      4     2  host length H (1..{@value #MAX_HOST_BYTES})
 *      6     H  host, UTF-8
 *    6+H     2  label length L (0..{@value #MAX_LABEL_BYTES})
 *    8+H     L  label, UTF-8
 * </pre>
 */
record PeerIdentity(NodeAddress address, String label, byte[] encoded) {

    static final int MAX_HOST_BYTES = 255;
    static final int MAX_LABEL_BYTES = 255;
    private static final int MAX_LABEL_CHARS = 60;

    PeerIdentity {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(encoded, "encoded");
    }

    /** The identity of a local transport; a long label is cut. */
    static PeerIdentity of(NodeAddress address, String label) {
        byte[] host = address.host().getBytes(StandardCharsets.UTF_8);
        if (host.length == 0 || host.length > MAX_HOST_BYTES) {
            throw new IllegalArgumentException("advertised host '" + address.host() + "' must be 1 to " + MAX_HOST_BYTES
                    + " bytes");
        }
        String shortLabel = label.length() > MAX_LABEL_CHARS ? label.substring(0, MAX_LABEL_CHARS) : label;
        byte[] labelBytes = shortLabel.getBytes(StandardCharsets.UTF_8);
        Buffer out = Buffer.buffer(8 + host.length + labelBytes.length)
                .appendUnsignedShort(address.tcpPort())
                .appendUnsignedShort(address.udpPort())
                .appendUnsignedShort(host.length)
                .appendBytes(host)
                .appendUnsignedShort(labelBytes.length)
                .appendBytes(labelBytes);
        return new PeerIdentity(address, shortLabel, out.getBytes());
    }

    /** Reads an identity that fills {@code payload} from {@code offset} to its end. */
    static PeerIdentity read(Buffer payload, int offset) {
        int length = payload.length() - offset;
        if (length < 8) {
            throw new IllegalArgumentException("identity of " + length + " bytes, shorter than its 8 fixed bytes");
        }
        int tcpPort = payload.getUnsignedShort(offset);
        int udpPort = payload.getUnsignedShort(offset + 2);
        int hostLength = payload.getUnsignedShort(offset + 4);
        if (hostLength == 0 || hostLength > MAX_HOST_BYTES || 8 + hostLength > length) {
            throw new IllegalArgumentException("identity announces a host of " + hostLength + " bytes in " + length
                    + " bytes");
        }
        int labelLength = payload.getUnsignedShort(offset + 6 + hostLength);
        if (labelLength > MAX_LABEL_BYTES || 8 + hostLength + labelLength != length) {
            throw new IllegalArgumentException("identity announces a label of " + labelLength + " bytes; "
                    + (length - 8 - hostLength) + " bytes follow the host");
        }
        if (tcpPort == 0 || udpPort == 0) {
            throw new IllegalArgumentException("identity announces port 0");
        }
        String host = payload.getString(offset + 6, offset + 6 + hostLength, StandardCharsets.UTF_8.name());
        String label = payload.getString(offset + 8 + hostLength, offset + 8 + hostLength + labelLength,
                StandardCharsets.UTF_8.name());
        return new PeerIdentity(new NodeAddress(host, tcpPort, udpPort), label,
                payload.getBytes(offset, payload.length()));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PeerIdentity that && Arrays.equals(encoded, that.encoded);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encoded);
    }

    /** For log lines: both parts made printable (they came from the wire). */
    @Override
    public String toString() {
        return Printable.of(label, MAX_LABEL_CHARS) + "@" + Printable.of(address.host(), MAX_HOST_BYTES) + ":"
                + address.tcpPort();
    }
}
