package dev.canopy.multicast.internal.reliable;

import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;

/**
 * Puts a root's messages back together from their fragments, which it gets in sequence order: a
 * message starts at offset 0 and each following fragment continues where the last one stopped. Owner loop only.
 */
final class Reassembly {

    private Buffer message;
    private int length;

    /**
     * Adds the next in-order DATA packet (already validated). Returns the completed message, or null
     * while it is incomplete. A fragment that does not continue the message is a broken root: an
     * {@link IllegalStateException} naming the root and sequence number.
     */
    Buffer add(ByteBuffer packet, int root) {
        int messageLength = PacketCodec.messageLength(packet);
        int offset = PacketCodec.fragmentOffset(packet);
        int filled = message == null ? 0 : message.length();
        if (offset != filled || (message != null && messageLength != length)) {
            throw new IllegalStateException("root " + root + " packet " + PacketCodec.sequence(packet)
                    + " carries bytes " + offset + ".. of a " + messageLength + "-byte message where bytes " + filled
                    + ".. of a " + (message == null ? messageLength : length) + "-byte message are due");
        }
        if (message == null) {
            message = Buffer.buffer(messageLength);
            length = messageLength;
        }
        int fragment = PacketCodec.fragmentLength(packet);
        // One copy, from the packet straight into the message (profiling showed the fragment's own array).
        message.setBytes(filled, packet.slice(PacketCodec.HEADER_BYTES, fragment));
        if (message.length() < length) {
            return null;
        }
        Buffer complete = message;
        message = null;
        return complete;
    }
}
