package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.data.MalformedMessageException;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * What a group's head multicasts for each bcast, so that its stream holds one message per bcast whatever
 * carries the bytes:
 * <pre>
 *  offset  size  field
 *       0     1  kind     1 INLINE: the message follows; 2 TREE: it comes down the plan's point-to-point
 *                         tree; 3 FAILED: the head could not get it, a UTF-8 reason follows
 *       1     -  the message (INLINE), nothing (TREE) or the reason (FAILED)
 * </pre>
 * The same envelope crosses the heads' tree, so every head learns the root's choice.
 */
record Envelope(Kind kind, Buffer body) {

    enum Kind {
        INLINE, TREE, FAILED
    }

    static Buffer inline(Buffer message) {
        return Buffer.buffer(1 + message.length()).appendByte((byte) 1).appendBuffer(message);
    }

    static Buffer tree() {
        return Buffer.buffer(1).appendByte((byte) 2);
    }

    static Buffer failed(String reason) {
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        return Buffer.buffer(1 + text.length).appendByte((byte) 3).appendBytes(text);
    }

    /** Reads an envelope from rank {@code sender}; {@link MalformedMessageException} naming it when broken. */
    static Envelope decode(Buffer bytes, int sender) {
        if (bytes.length() < 1) {
            throw new MalformedMessageException("an empty multicast bcast envelope from rank " + sender);
        }
        Buffer body = bytes.slice(1, bytes.length());
        return switch (bytes.getByte(0)) {
            case 1 -> new Envelope(Kind.INLINE, body);
            case 2 -> {
                if (body.length() != 0) {
                    throw new MalformedMessageException("a multicast bcast TREE envelope from rank " + sender
                            + " carries " + body.length() + " bytes; it carries none");
                }
                yield new Envelope(Kind.TREE, body);
            }
            case 3 -> new Envelope(Kind.FAILED, body);
            default -> throw new MalformedMessageException("a multicast bcast envelope of unknown kind "
                    + bytes.getByte(0) + " from rank " + sender + " (1 inline, 2 tree, 3 failed)");
        };
    }

    String reason() {
        return body.toString(StandardCharsets.UTF_8);
    }
}
