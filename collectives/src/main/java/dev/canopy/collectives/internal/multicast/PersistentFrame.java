package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.CollectiveMismatchException;
import dev.canopy.collectives.data.MalformedMessageException;
import io.vertx.core.buffer.Buffer;

/**
 * The one broadcast of a persistent request's {@code start()}: the data behind the request's fingerprint, so a
 * member that started a different persistent request (or a plain bcast) at this point finds out.
 *
 * <pre>
 *   offset 0   int  MAGIC ("CPRQ")
 *   offset 4   long the request's fingerprint (agreed at init)
 *   offset 12  int  data length (fixed at init)
 *   offset 16       the data
 * </pre>
 */
final class PersistentFrame {

    static final int MAGIC = 0x43505251;
    static final int FINGERPRINT_OFFSET = 4;
    static final int LENGTH_OFFSET = 12;
    static final int HEADER_BYTES = 16;

    private PersistentFrame() {
    }

    static Buffer wrap(long fingerprint, Buffer data) {
        return Buffer.buffer(HEADER_BYTES + data.length()).appendInt(MAGIC).appendLong(fingerprint)
                .appendInt(data.length()).appendBuffer(data);
    }

    /**
     * The data of {@code message}, checked to be {@code expectedBytes} long and to belong to the request named
     * {@code what} with {@code fingerprint}.
     */
    static Buffer unwrap(Buffer message, long fingerprint, int expectedBytes, String what) {
        if (message == null || message.length() < HEADER_BYTES || message.getInt(0) != MAGIC) {
            throw new CollectiveMismatchException(what + " received a message that is no persistent request's ("
                    + (message == null ? "none" : message.length() + " bytes")
                    + "): every member must start the same persistent requests in the same order");
        }
        long received = message.getLong(FINGERPRINT_OFFSET);
        if (received != fingerprint) {
            throw new CollectiveMismatchException(what + " received the data of another persistent request (fingerprint "
                    + Long.toHexString(received) + ", expected " + Long.toHexString(fingerprint)
                    + "): every member must start the same persistent requests in the same order");
        }
        int length = message.getInt(LENGTH_OFFSET);
        if (length != expectedBytes || message.length() - HEADER_BYTES != expectedBytes) {
            throw new MalformedMessageException(what + " received " + (message.length() - HEADER_BYTES)
                    + " bytes announced as " + length + ", but the request carries " + expectedBytes);
        }
        return message.slice(HEADER_BYTES, message.length());
    }
}
