package dev.canopy.core.internal.frame;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Cuts a TCP byte stream into frames. Reads may split a frame or coalesce several; the decoder
 * keeps the unfinished frame between calls. After the first malformed frame it is spent: the
 * connection must be closed, because nothing after the bad bytes can be trusted.
 *
 * <p>A frame complete within one read is decoded straight from it, its payload copied once into a
 * buffer of its own (see {@link FrameCodec#readFrame}). A frame spread over reads keeps the pieces of
 * the reads that hold its payload and joins them when it is complete: a payload of at least
 * {@value #CHAIN_MIN_BYTES} bytes becomes a {@link BufferChain} over those pieces, without copying
 * (a 1 MiB payload arrives in about sixteen reads, each already a buffer of its own; copying them
 * into one 1 MiB array cost a fifth of a receiver's CPU time and a humongous allocation per frame);
 * a shorter one is copied into a buffer of its exact size, so that a small frame never keeps whole
 * reads alive. The caller must therefore not change a chunk after feeding it (socket reads are
 * fresh buffers).
 *
 * <p>One decoder per connection, used from the connection's context only.
 */
public final class FrameStreamDecoder {

    /** Payloads at least this long are joined from the reads they arrived in instead of copied. */
    public static final int CHAIN_MIN_BYTES = 64 * 1024;

    private final int maxFrameBytes;
    /** The limit of the next frame: {@code maxFirstFrameBytes} until the first frame is complete. */
    private int limit;
    private Buffer header = Buffer.buffer(FrameCodec.HEADER_LENGTH);
    /** The pieces of the payload read so far; null between frames. */
    private List<Buffer> payload;
    private int payloadLength;
    private int payloadMissing;
    private MalformedFrame failure;

    /** @param maxFrameBytes the largest frame accepted, header included */
    public FrameStreamDecoder(int maxFrameBytes) {
        this(maxFrameBytes, maxFrameBytes);
    }

    /**
     * A decoder whose first frame may be at most {@code maxFirstFrameBytes} long, e.g. the size of the
     * largest HELLO: a peer that has not yet said who it is cannot make the decoder reserve a
     * {@code maxFrameBytes} payload with a 48-byte header.
     *
     * @param maxFrameBytes      the largest frame accepted after the first, header included
     * @param maxFirstFrameBytes the largest first frame accepted, header included
     */
    public FrameStreamDecoder(int maxFrameBytes, int maxFirstFrameBytes) {
        if (Math.min(maxFrameBytes, maxFirstFrameBytes) < FrameCodec.HEADER_LENGTH) {
            throw new IllegalArgumentException("frame limits " + maxFrameBytes + " and " + maxFirstFrameBytes
                    + " must be at least the frame header (" + FrameCodec.HEADER_LENGTH + " bytes)");
        }
        this.maxFrameBytes = maxFrameBytes;
        this.limit = maxFirstFrameBytes;
    }

    /**
     * Feeds the next bytes of the stream, handing each complete frame to {@code sink} in order.
     *
     * @return the problem that ends the stream, if these bytes (or earlier ones) were malformed
     */
    public Optional<MalformedFrame> feed(Buffer chunk, Consumer<Frame> sink) {
        if (failure != null) {
            return Optional.of(failure);
        }
        int position = 0;
        while (position < chunk.length()) {
            if (payload != null) {
                position = fillPayload(chunk, position, sink);
            } else if (header.length() == 0 && chunk.length() - position >= FrameCodec.HEADER_LENGTH) {
                position = decodeInPlace(chunk, position, sink);
            } else {
                position = fillHeader(chunk, position, sink);
            }
            if (failure != null) {
                return Optional.of(failure);
            }
        }
        return Optional.empty();
    }

    /**
     * The stream has ended (the peer closed the connection).
     *
     * @return {@link MalformedFrame.Reason#TRUNCATED} when it ended inside a frame
     */
    public Optional<MalformedFrame> endOfStream() {
        if (failure == null && bufferedBytes() > 0) {
            failure = new MalformedFrame(MalformedFrame.Reason.TRUNCATED,
                    "stream ended " + bufferedBytes() + " bytes into a frame");
        }
        return Optional.ofNullable(failure);
    }

    /** Bytes received but not yet part of a complete frame. */
    public int bufferedBytes() {
        return header.length() + (payload == null ? 0 : payloadLength - payloadMissing);
    }

    /** The header starts at {@code position} and is all in {@code chunk}. */
    private int decodeInPlace(Buffer chunk, int position, Consumer<Frame> sink) {
        failure = FrameCodec.checkHeader(chunk, position, limit);
        if (failure != null) {
            return chunk.length();
        }
        int payloadLength = chunk.getInt(position + FrameCodec.PAYLOAD_LENGTH_OFFSET);
        int frameEnd = position + FrameCodec.HEADER_LENGTH + payloadLength;
        if (frameEnd <= chunk.length()) {
            limit = maxFrameBytes;
            sink.accept(FrameCodec.readFrame(chunk, position));
            return frameEnd;
        }
        header.appendBuffer(chunk, position, FrameCodec.HEADER_LENGTH);
        startPayload(payloadLength);
        return position + FrameCodec.HEADER_LENGTH;
    }

    private int fillHeader(Buffer chunk, int position, Consumer<Frame> sink) {
        int take = Math.min(FrameCodec.HEADER_LENGTH - header.length(), chunk.length() - position);
        header.appendBuffer(chunk, position, take);
        if (header.length() < FrameCodec.HEADER_LENGTH) {
            return position + take;
        }
        failure = FrameCodec.checkHeader(header, 0, limit);
        if (failure != null) {
            return chunk.length();
        }
        startPayload(header.getInt(FrameCodec.PAYLOAD_LENGTH_OFFSET));
        if (payloadMissing == 0) {
            emit(sink);
        }
        return position + take;
    }

    private int fillPayload(Buffer chunk, int position, Consumer<Frame> sink) {
        int take = Math.min(payloadMissing, chunk.length() - position);
        payload.add(chunk.slice(position, position + take));
        payloadMissing -= take;
        if (payloadMissing == 0) {
            emit(sink);
        }
        return position + take;
    }

    private void startPayload(int length) {
        payload = new ArrayList<>();
        payloadLength = length;
        payloadMissing = length;
    }

    private Buffer joinedPayload() {
        if (payloadLength >= CHAIN_MIN_BYTES) {
            return BufferChain.of(payload);
        }
        Buffer joined = Buffer.buffer(payloadLength);
        payload.forEach(joined::appendBuffer);
        return joined;
    }

    private void emit(Consumer<Frame> sink) {
        Frame frame = FrameCodec.readHeader(header, 0, joinedPayload());
        header = Buffer.buffer(FrameCodec.HEADER_LENGTH);
        payload = null;
        limit = maxFrameBytes;
        sink.accept(frame);
    }
}
