package dev.canopy.core.internal.frame;

import io.vertx.core.buffer.Buffer;

/**
 * Encodes and decodes Canopy frames. All fields are big-endian (network order); the header has a
 * fixed length, so a frame is length-prefixed by its header: a reader that has the 48 header bytes
 * knows exactly how many payload bytes follow.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |                     Magic 0x434E5059 "CNPY"                   |  0
 * +---------------+---------------+-------------------------------+
 * |    Version    |   Type code   |         Reserved (0)          |  4
 * +---------------+---------------+-------------------------------+
 * |                        Job id (64 bits)                       |  8
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                     Communicator context                      | 16
 * +---------------------------------------------------------------+
 * |                         Reserved (0)                          | 20
 * +---------------------------------------------------------------+
 * |                    Source world rank (-1 unknown)             | 24
 * +---------------------------------------------------------------+
 * |                 Destination world rank (-1 unknown)           | 28
 * +---------------------------------------------------------------+
 * |                             Tag                               | 32
 * +---------------------------------------------------------------+
 * |                       Sequence (64 bits)                      | 36
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                   Payload length (bytes, >= 0)                | 44
 * +---------------------------------------------------------------+
 * |                         Payload ...                           | 48
 * </pre>
 *
 * <p>The type code is {@link FrameType#code()}, never an enum ordinal. Both reserved fields are
 * written as 0 and kept for a later version; offset 20 was named "epoch" in early drafts but never
 * carried one (the plan a collective runs with travels in the collective header, see the collectives'
 * {@code CollectiveFrame}). Ranks, context, tag and sequence are opaque here: the layers above check
 * them against their own state.
 *
 * <p>A frame is malformed when its magic, version, type code or a reserved field is wrong, when its
 * payload length is negative or makes the frame longer than the configured maximum, or when fewer
 * bytes arrive than the header announces. TCP streams are decoded by {@link FrameStreamDecoder};
 * datagrams, which carry exactly one frame, by {@link #decodeDatagram(Buffer, int)}. Neither
 * throws on any input: every problem is a {@link MalformedFrame} value (see docs/wire-format.md).
 */
public final class FrameCodec {

    public static final int MAGIC = 0x434E5059;
    public static final int VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int TYPE_OFFSET = 5;
    public static final int RESERVED_OFFSET = 6;
    public static final int JOB_OFFSET = 8;
    public static final int CONTEXT_OFFSET = 16;
    /** A second reserved field, 32 bits, always 0. */
    public static final int RESERVED_WORD_OFFSET = 20;
    public static final int SOURCE_OFFSET = 24;
    public static final int DESTINATION_OFFSET = 28;
    public static final int TAG_OFFSET = 32;
    public static final int SEQUENCE_OFFSET = 36;
    public static final int PAYLOAD_LENGTH_OFFSET = 44;
    public static final int HEADER_LENGTH = 48;

    /** The largest payload of one UDP datagram over IPv4. */
    public static final int MAX_UDP_PAYLOAD = 65_507;

    private FrameCodec() {
    }

    /** The frame as wire bytes: header followed by payload, in one new buffer. */
    public static Buffer encode(Frame frame) {
        return appendHeader(frame, Buffer.buffer(HEADER_LENGTH + frame.payload().length())).appendBuffer(frame.payload());
    }

    /** The frame's header alone; write the payload after it (saves copying a large payload). */
    public static Buffer encodeHeader(Frame frame) {
        return appendHeader(frame, Buffer.buffer(HEADER_LENGTH));
    }

    private static Buffer appendHeader(Frame frame, Buffer out) {
        return out.appendInt(MAGIC)
                .appendByte((byte) VERSION)
                .appendByte((byte) frame.type().code())
                .appendShort((short) 0)
                .appendLong(frame.job())
                .appendInt(frame.context())
                .appendInt(frame.reserved())
                .appendInt(frame.source())
                .appendInt(frame.destination())
                .appendInt(frame.tag())
                .appendLong(frame.sequence())
                .appendInt(frame.payload().length());
    }

    /**
     * Decodes a datagram, which must hold exactly one frame of at most {@code maxFrameBytes}. Never
     * throws for any bytes: a problem is a {@link MalformedFrame}.
     */
    public static DecodeResult decodeDatagram(Buffer datagram, int maxFrameBytes) {
        if (datagram.length() < HEADER_LENGTH) {
            return new MalformedFrame(MalformedFrame.Reason.TRUNCATED,
                    datagram.length() + " bytes, shorter than the " + HEADER_LENGTH + "-byte header");
        }
        MalformedFrame problem = checkHeader(datagram, 0, maxFrameBytes);
        if (problem != null) {
            return problem;
        }
        int frameLength = HEADER_LENGTH + datagram.getInt(PAYLOAD_LENGTH_OFFSET);
        if (datagram.length() < frameLength) {
            return new MalformedFrame(MalformedFrame.Reason.TRUNCATED,
                    "header announces " + frameLength + " bytes, datagram has " + datagram.length());
        }
        if (datagram.length() > frameLength) {
            return new MalformedFrame(MalformedFrame.Reason.TRAILING_BYTES,
                    (datagram.length() - frameLength) + " bytes after a " + frameLength + "-byte frame");
        }
        return new DecodeResult.Decoded(readFrame(datagram, 0));
    }

    /** Decodes a datagram with the default maximum of one UDP datagram (65,507 bytes). */
    public static DecodeResult decodeDatagram(Buffer datagram) {
        return decodeDatagram(datagram, MAX_UDP_PAYLOAD);
    }

    /**
     * Checks the header at {@code offset} (all {@link #HEADER_LENGTH} bytes must be present).
     *
     * @return the problem, or {@code null} when the header is well formed
     */
    static MalformedFrame checkHeader(Buffer buffer, int offset, int maxFrameBytes) {
        // Order matters only for the reason reported: every field is checked before any is used.
        int magic = buffer.getInt(offset + MAGIC_OFFSET);
        if (magic != MAGIC) {
            return new MalformedFrame(MalformedFrame.Reason.BAD_MAGIC,
                    String.format("magic 0x%08X, expected 0x%08X (\"CNPY\"): not a Canopy peer or a corrupt stream",
                            magic, MAGIC));
        }
        int version = buffer.getUnsignedByte(offset + VERSION_OFFSET);
        if (version != VERSION) {
            return new MalformedFrame(MalformedFrame.Reason.BAD_VERSION,
                    "protocol version " + version + ", this node speaks " + VERSION
                            + ": run the same Canopy release on every node");
        }
        int typeCode = buffer.getUnsignedByte(offset + TYPE_OFFSET);
        if (FrameType.fromCode(typeCode).isEmpty()) {
            return new MalformedFrame(MalformedFrame.Reason.UNKNOWN_TYPE, "frame type code " + typeCode);
        }
        int reserved = buffer.getUnsignedShort(offset + RESERVED_OFFSET);
        if (reserved != 0) {
            return new MalformedFrame(MalformedFrame.Reason.BAD_RESERVED, "reserved field " + reserved + ", expected 0");
        }
        int reservedWord = buffer.getInt(offset + RESERVED_WORD_OFFSET);
        if (reservedWord != 0) {
            return new MalformedFrame(MalformedFrame.Reason.BAD_RESERVED,
                    "reserved field at offset " + RESERVED_WORD_OFFSET + " is " + reservedWord + ", expected 0");
        }
        int payloadLength = buffer.getInt(offset + PAYLOAD_LENGTH_OFFSET);
        if (payloadLength < 0 || payloadLength > maxFrameBytes - HEADER_LENGTH) {
            return new MalformedFrame(MalformedFrame.Reason.OVERSIZED,
                    "payload length " + payloadLength + " outside 0.." + (maxFrameBytes - HEADER_LENGTH)
                            + " (maximum frame " + maxFrameBytes + " bytes, TransportOptions.maxFrameBytes)");
        }
        return null;
    }

    /**
     * Reads a frame whose header passed {@link #checkHeader} and whose payload is complete.
     *
     * <p>The payload is copied once, into a buffer of exactly its size that the frame owns. A slice
     * of {@code buffer} would save that copy but leave the payload in memory the caller owns: it
     * would change if the transport reused or refilled its read buffer, it would keep the whole read
     * (often many frames) alive while one small frame waits in a receive queue, and it could not
     * grow (a Vert.x slice rejects {@code appendBuffer}), although receivers treat payloads as
     * ordinary buffers. ({@code Buffer.getBuffer} would copy twice: into a byte array, then into a
     * new buffer.)
     */
    static Frame readFrame(Buffer buffer, int offset) {
        int payloadLength = buffer.getInt(offset + PAYLOAD_LENGTH_OFFSET);
        Buffer payload = Buffer.buffer(payloadLength).appendBuffer(buffer, offset + HEADER_LENGTH, payloadLength);
        return readHeader(buffer, offset, payload);
    }

    /** The frame whose header (which passed {@link #checkHeader}) is at {@code offset}, with {@code payload}. */
    static Frame readHeader(Buffer header, int offset, Buffer payload) {
        return new Frame(
                FrameType.fromCode(header.getUnsignedByte(offset + TYPE_OFFSET)).orElseThrow(),
                header.getLong(offset + JOB_OFFSET),
                header.getInt(offset + CONTEXT_OFFSET),
                0, // the reserved word, checked by checkHeader
                header.getInt(offset + SOURCE_OFFSET),
                header.getInt(offset + DESTINATION_OFFSET),
                header.getInt(offset + TAG_OFFSET),
                header.getLong(offset + SEQUENCE_OFFSET),
                payload);
    }
}
