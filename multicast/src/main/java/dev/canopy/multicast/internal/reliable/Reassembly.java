package dev.canopy.multicast.internal.reliable;

import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * Puts a root's messages back together from their fragments, which it gets in sequence order: a
 * message starts at offset 0 and each following fragment continues where the last one stopped. A
 * BUNDLE packet holds whole messages only, so it may come only between messages. Owner loop only.
 */
final class Reassembly {

    private Buffer message;
    private int length;

    /**
     * Adds the next in-order DATA or BUNDLE packet (already validated) and hands every message it completes
     * to {@code deliver}, in order. A BUNDLE in the middle of a fragmented message is a broken root: an
     * {@link IllegalStateException} naming the root and sequence number.
     */
    void accept(ByteBuffer packet, int root, Consumer<Buffer> deliver) {
        if (PacketCodec.type(packet) != PacketCodec.BUNDLE) {
            Buffer complete = add(packet, root);
            if (complete != null) {
                deliver.accept(complete);
            }
            return;
        }
        if (message != null) {
            throw new IllegalStateException("root " + root + " packet " + PacketCodec.sequence(packet)
                    + " is a bundle where bytes " + message.length() + ".. of a " + length + "-byte message are due");
        }
        int position = PacketCodec.HEADER_BYTES;
        for (int i = PacketCodec.bundleCount(packet); i > 0; i--) {
            int messageLength = packet.getInt(position);
            position += PacketCodec.ENTRY_LENGTH_BYTES;
            Buffer bundled = Buffer.buffer(messageLength);
            bundled.setBytes(0, packet.slice(position, messageLength));
            position += messageLength;
            deliver.accept(bundled);
        }
    }

    /**
     * Adds the next in-order DATA packet (already validated). Returns the completed message, or null
     * while it is incomplete. A fragment that does not continue the message is a broken root: an
     * {@link IllegalStateException} naming the root and sequence number.
     */
    private Buffer add(ByteBuffer packet, int root) {
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
