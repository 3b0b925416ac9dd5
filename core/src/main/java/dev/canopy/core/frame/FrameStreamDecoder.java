package dev.canopy.core.frame;

import io.vertx.core.buffer.Buffer;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Cuts a TCP byte stream into frames. Reads may split a frame or coalesce several; the decoder
 * keeps the unfinished tail between calls. After the first malformed frame it is spent: the
 * connection must be closed, because nothing after the bad bytes can be trusted.
 *
 * <p>One decoder per connection, used from the connection's context only.
 */
public final class FrameStreamDecoder {

    private final int maxFrameBytes;
    private Buffer tail;
    private MalformedFrame failure;

    /** @param maxFrameBytes the largest frame accepted, header included */
    public FrameStreamDecoder(int maxFrameBytes) {
        if (maxFrameBytes < FrameCodec.HEADER_LENGTH) {
            throw new IllegalArgumentException("maxFrameBytes " + maxFrameBytes
                    + " is smaller than the frame header (" + FrameCodec.HEADER_LENGTH + " bytes)");
        }
        this.maxFrameBytes = maxFrameBytes;
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
        Buffer data = tail == null ? chunk : tail.appendBuffer(chunk);
        int position = 0;
        while (data.length() - position >= FrameCodec.HEADER_LENGTH) {
            MalformedFrame problem = FrameCodec.checkHeader(data, position, maxFrameBytes);
            if (problem != null) {
                failure = problem;
                tail = null;
                return Optional.of(problem);
            }
            int frameLength = FrameCodec.HEADER_LENGTH + data.getInt(position + FrameCodec.PAYLOAD_LENGTH_OFFSET);
            if (data.length() - position < frameLength) {
                break;
            }
            sink.accept(FrameCodec.readFrame(data, position));
            position += frameLength;
        }
        keepTail(data, chunk, position);
        return Optional.empty();
    }

    /**
     * The stream has ended (the peer closed the connection).
     *
     * @return {@link MalformedFrame.Reason#TRUNCATED} when it ended inside a frame
     */
    public Optional<MalformedFrame> endOfStream() {
        if (failure == null && tail != null) {
            failure = new MalformedFrame(MalformedFrame.Reason.TRUNCATED,
                    "stream ended " + tail.length() + " bytes into a frame");
        }
        return Optional.ofNullable(failure);
    }

    /** Bytes received but not yet part of a complete frame. */
    public int bufferedBytes() {
        return tail == null ? 0 : tail.length();
    }

    private void keepTail(Buffer data, Buffer chunk, int consumed) {
        if (consumed == data.length()) {
            tail = null;
        } else if (data == tail && consumed == 0) {
            // Still inside the same frame: keep appending to the tail we own.
            return;
        } else {
            // Copy: the caller's chunk is not ours to append to, and a consumed prefix must go.
            tail = data.getBuffer(consumed, data.length());
        }
    }
}
