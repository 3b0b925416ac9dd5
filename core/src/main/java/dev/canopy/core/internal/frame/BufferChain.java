package dev.canopy.core.internal.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import java.util.List;

/**
 * One {@link Buffer} over several others, without copying their bytes: Netty's composite buffer
 * behind Vert.x's {@link Buffer} API: a payload assembled from many socket reads is handed up without
 * joining the reads into one array.
 *
 * <p>Read it with {@code getBytes} (into an array or another buffer), which walks the parts. Asking its
 * {@code ByteBuf} for one NIO buffer, as Netty's pooled buffers do when a chain is written into them
 * with {@code writeBytes}, merges all parts into a new array first.
 *
 * <p>The result shares memory with the parts: they must not change afterwards. Vert.x's heap buffers
 * are not reference counted (release does nothing), so the parts stay valid as long as it is used.
 */
public final class BufferChain {

    private BufferChain() {
    }

    /** The parts back to back, as one buffer that may still grow (unlike a slice). */
    public static Buffer of(List<Buffer> parts) {
        // Constructed directly: the allocator's composite is tracked by Netty's leak detector, which would
        // report every chain the garbage collector frees (heap memory that needs no release).
        CompositeByteBuf chain = new CompositeByteBuf(UnpooledByteBufAllocator.DEFAULT, false, Integer.MAX_VALUE);
        for (Buffer part : parts) {
            ByteBuf bytes = part instanceof BufferInternal internal ? internal.getByteBuf()
                    : Unpooled.wrappedBuffer(part.getBytes());
            if (bytes.isReadable()) {
                chain.addComponent(true, bytes);
            }
        }
        return BufferInternal.buffer(chain);
    }
}
