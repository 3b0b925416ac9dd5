package dev.canopy.core.internal.frame;

/**
 * Why bytes are not a frame: the one typed outcome of {@link FrameCodec#decodeDatagram} and
 * {@link FrameStreamDecoder}, which throw on no input. An expected outcome of reading from the
 * network, so a value; the transport logs it and closes only the connection it came from.
 */
public record MalformedFrame(Reason reason, String detail) implements DecodeResult {

    public enum Reason {
        BAD_MAGIC,
        BAD_VERSION,
        UNKNOWN_TYPE,
        /** A reserved header field is not zero: a sender speaking a newer dialect of this version. */
        BAD_RESERVED,
        /** The payload length is negative or the frame would exceed the configured maximum. */
        OVERSIZED,
        /** Fewer bytes than the header announces (end of stream or datagram). */
        TRUNCATED,
        /** A datagram with bytes after its frame. */
        TRAILING_BYTES,
        /** A TCP connection whose first frame is not {@link FrameType#HELLO}. */
        NO_HELLO,
        /** A HELLO whose payload does not announce the sender's address. */
        BAD_HELLO
    }

    @Override
    public String toString() {
        return reason + ": " + detail;
    }
}
