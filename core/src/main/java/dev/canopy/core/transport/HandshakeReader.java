package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.DecodeResult;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.frame.MalformedFrame;
import dev.canopy.core.internal.security.Rejection;
import io.vertx.core.buffer.Buffer;

/**
 * Cuts one handshake message off the front of a TCP stream before the connection is authenticated.
 * It holds at most {@link Hello#MAX_FRAME_BYTES}: a header announcing more is refused at once, so an
 * unauthenticated peer cannot make this node allocate more than that. The bytes after the message
 * (frames a client sent right behind its proof) are handed back untouched.
 *
 * <p>One reader per handshake message; used from the connection's context only.
 */
final class HandshakeReader {

    /** The outcome of feeding bytes: nothing yet, a message (and what followed it), or a refusal. */
    sealed interface Step permits NeedMore, Message, Refused {
    }

    record NeedMore() implements Step {
    }

    record Message(Frame frame, Buffer rest) implements Step {
    }

    record Refused(Rejection rejection, String detail) implements Step {
    }

    private static final NeedMore NEED_MORE = new NeedMore();

    private final Buffer held = Buffer.buffer(Hello.MAX_FRAME_BYTES);

    Step feed(Buffer chunk) {
        int position = 0;
        if (held.length() < FrameCodec.HEADER_LENGTH) {
            int take = Math.min(FrameCodec.HEADER_LENGTH - held.length(), chunk.length());
            held.appendBuffer(chunk, 0, take);
            position = take;
            if (held.length() < FrameCodec.HEADER_LENGTH) {
                return NEED_MORE;
            }
        }
        int payloadLength = held.getInt(FrameCodec.PAYLOAD_LENGTH_OFFSET);
        if (payloadLength < 0 || payloadLength > Hello.MAX_FRAME_BYTES - FrameCodec.HEADER_LENGTH) {
            return new Refused(Rejection.HANDSHAKE_MALFORMED, "the first frame announces " + payloadLength
                    + " payload bytes; a handshake message has at most "
                    + (Hello.MAX_FRAME_BYTES - FrameCodec.HEADER_LENGTH));
        }
        int missing = FrameCodec.HEADER_LENGTH + payloadLength - held.length();
        int take = Math.min(missing, chunk.length() - position);
        held.appendBuffer(chunk, position, take);
        position += take;
        if (take < missing) {
            return NEED_MORE;
        }
        DecodeResult decoded = FrameCodec.decodeDatagram(held, Hello.MAX_FRAME_BYTES);
        if (decoded instanceof MalformedFrame problem) {
            return new Refused(Rejection.HANDSHAKE_MALFORMED, problem.toString());
        }
        Frame frame = ((DecodeResult.Decoded) decoded).frame();
        return new Message(frame, position == chunk.length() ? Buffer.buffer() : chunk.slice(position, chunk.length()));
    }
}
