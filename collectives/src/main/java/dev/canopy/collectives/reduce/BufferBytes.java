package dev.canopy.collectives.reduce;

import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;

/**
 * The bytes of a buffer as a region of a heap array, so that loops can read and write elements
 * through {@link java.lang.invoke.VarHandle} views instead of one bounds-checked {@link Buffer}
 * call per element.
 *
 * <p>Vert.x's public {@link Buffer} API only copies bytes out; the array behind a heap buffer is
 * reached through Vert.x 5's internal {@link BufferInternal#getByteBuf()}, here and nowhere else.
 * A buffer without an accessible array (direct or composite memory) is copied instead, and
 * {@link #writeBack()} stores what was written into the copy.
 */
final class BufferBytes {

    private final Buffer source;
    private final byte[] array;
    private final int offset;
    private final Origin origin;

    private enum Origin { VIEW, COPY }

    private BufferBytes(Buffer source, byte[] array, int offset, Origin origin) {
        this.source = source;
        this.array = array;
        this.offset = offset;
        this.origin = origin;
    }

    static BufferBytes of(Buffer buffer) {
        if (buffer instanceof BufferInternal internal) {
            ByteBuf bytes = internal.getByteBuf();
            // The view starts at the wrapped buffer's reader index, the Buffer's index 0 at its start:
            // they agree only when everything from index 0 is readable.
            if (bytes.hasArray() && bytes.readableBytes() == buffer.length()) {
                return new BufferBytes(buffer, bytes.array(), bytes.arrayOffset() + bytes.readerIndex(), Origin.VIEW);
            }
        }
        return new BufferBytes(buffer, buffer.getBytes(), 0, Origin.COPY);
    }

    /** The array holding the buffer's bytes from {@link #offset()} on; shared with the buffer unless it is a copy. */
    byte[] array() {
        return array;
    }

    /** Where the buffer's first byte is in {@link #array()}. */
    int offset() {
        return offset;
    }

    /** Whether writes to {@link #array()} reach the buffer without {@link #writeBack()}. */
    boolean isView() {
        return origin == Origin.VIEW;
    }

    /** Stores what was written to {@link #array()} in the buffer, if the array is a copy. */
    void writeBack() {
        if (origin == Origin.COPY) {
            source.setBytes(0, array, offset, source.length());
        }
    }
}
