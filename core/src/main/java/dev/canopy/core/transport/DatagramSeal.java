package dev.canopy.core.transport;

import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.internal.security.ReplayWindow;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;

/**
 * Seals every datagram with the sender's identity, a sequence number and a MAC, and opens received
 * ones: a datagram is handed up only when its MAC (HMAC-SHA-256 under a key derived from the job
 * secret and name, cut to {@value #MAC_BYTES} bytes) is right and its sequence number was not seen
 * from that sender before ({@link ReplayWindow}). Layout, big-endian:
 *
 * <pre>
 * offset  size  field
 *      0     1  envelope version ({@value #VERSION})
 *      1     1  sender host length H (1..255)
 *      2     2  sender UDP port
 *      4     H  sender host, UTF-8 (the address it advertises)
 *    4+H     8  sequence number
 *   12+H     n  the frame (header and payload)
 *  end-16   16  MAC of everything before it
 * </pre>
 *
 * A sender numbers its datagrams from its start time in milliseconds times 2^20, so a sender that
 * restarts at the same address continues above its old numbers. Replay windows are kept for at most
 * {@value #MAX_SENDERS} senders (only senders whose MAC was right get one).
 *
 * <p>Owned by the transport's context (the MAC instance is not thread-safe).
 */
final class DatagramSeal {

    static final int VERSION = 1;
    static final int MAC_BYTES = 16;
    static final int MAX_SENDERS = 4096;
    private static final int FIXED_BYTES = 4 + 8 + MAC_BYTES;

    /** The outcome of opening a datagram: the frame's bytes, or why it was refused. */
    sealed interface Opened permits Accepted, Refused {
    }

    record Accepted(Buffer frame) implements Opened {
    }

    record Refused(Rejection rejection, String detail) implements Opened {
    }

    private final Mac mac;
    private final byte[] sender;
    private long nextSequence = System.currentTimeMillis() << 20;
    private final Map<String, ReplayWindow> windows = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ReplayWindow> eldest) {
            return size() > MAX_SENDERS;
        }
    };

    DatagramSeal(TransportSecurity security, NodeAddress self) {
        this.mac = JobSecret.newMac(security.secret().derive("canopy/datagram/v" + VERSION + "/" + security.job().name()));
        byte[] host = self.host().getBytes(StandardCharsets.UTF_8);
        if (host.length == 0 || host.length > 255) {
            throw new IllegalArgumentException("advertised host '" + self.host() + "' must be 1 to 255 bytes");
        }
        this.sender = Buffer.buffer(4 + host.length).appendUnsignedByte((short) VERSION)
                .appendUnsignedByte((short) host.length).appendUnsignedShort(self.udpPort()).appendBytes(host).getBytes();
    }

    /** Bytes a sealed datagram adds to its frame. */
    int overhead() {
        return sender.length + 8 + MAC_BYTES;
    }

    /** The datagram carrying {@code frame} (its encoded bytes). */
    Buffer seal(Buffer frame) {
        Buffer sealed = Buffer.buffer(overhead() + frame.length()).appendBytes(sender).appendLong(nextSequence++)
                .appendBuffer(frame);
        return sealed.appendBytes(macOf(sealed, sealed.length()));
    }

    Opened open(Buffer datagram) {
        int length = datagram.length();
        if (length < FIXED_BYTES + 1) {
            return new Refused(Rejection.DATAGRAM_MALFORMED, length + " bytes, too short for a sealed datagram");
        }
        int version = datagram.getUnsignedByte(0);
        int hostLength = datagram.getUnsignedByte(1);
        int frameStart = 4 + hostLength + 8;
        if (version != VERSION || hostLength == 0 || frameStart + MAC_BYTES > length) {
            return new Refused(Rejection.DATAGRAM_MALFORMED, "envelope version " + version + " (expected " + VERSION
                    + "), sender host of " + hostLength + " bytes in " + length + " bytes");
        }
        byte[] expected = macOf(datagram, length - MAC_BYTES);
        if (!MessageDigest.isEqual(expected, datagram.getBytes(length - MAC_BYTES, length))) {
            return new Refused(Rejection.DATAGRAM_BAD_MAC, "the MAC is wrong: forged, corrupted, or another job's");
        }
        String senderKey = datagram.getString(4, 4 + hostLength, StandardCharsets.UTF_8.name()) + ":"
                + datagram.getUnsignedShort(2);
        long sequence = datagram.getLong(4 + hostLength);
        if (!windows.computeIfAbsent(senderKey, key -> new ReplayWindow()).accept(sequence)) {
            return new Refused(Rejection.DATAGRAM_REPLAYED, "sequence " + sequence + " from " + senderKey
                    + " was seen before or is too old");
        }
        return new Accepted(datagram.slice(frameStart, length - MAC_BYTES));
    }

    private byte[] macOf(Buffer bytes, int length) {
        mac.update(bytes.getBytes(0, length));
        return Arrays.copyOf(mac.doFinal(), MAC_BYTES);
    }
}
