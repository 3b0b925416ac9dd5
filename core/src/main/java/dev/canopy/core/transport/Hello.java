package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.internal.security.Rejection;
import io.vertx.core.buffer.Buffer;

/**
 * The handshake messages that open every TCP connection, each one {@link FrameType#HELLO} frame
 * (see {@link Handshake} for the exchange). The frame header carries the job key; its other fields are
 * 0 and its ranks unknown (-1). Payload, big-endian:
 *
 * <pre>
 * offset  size  field
 *      0     1  kind: 1 client hello, 2 server hello, 3 client proof, 4 server accept, 5 server decline
 *      1     1  handshake protocol version ({@value #VERSION})
 * client hello:
 *      2     8  job key
 *     10    32  client nonce
 *     42     -  client identity ({@link PeerIdentity}), to the end
 * server hello:
 *      2     8  job key
 *     10    32  server nonce
 *     42    32  server proof
 *     74     -  server identity, to the end
 * client proof:
 *      2    32  client proof (the payload is exactly 34 bytes)
 * server accept, server decline:
 *      (nothing more: the payload is exactly 2 bytes)
 * </pre>
 */
final class Hello {

    /** The handshake protocol version; a peer that speaks another is refused with a message saying so. */
    static final int VERSION = 2;
    static final int NONCE_BYTES = 32;
    static final int PROOF_BYTES = 32;
    /** No handshake message is longer (header included); a longer one is refused before it is read. */
    static final int MAX_FRAME_BYTES = 1024;

    static final int KIND_OFFSET = 0;
    static final int VERSION_OFFSET = 1;
    static final int JOB_OFFSET = 2;
    static final int NONCE_OFFSET = 10;
    static final int CLIENT_IDENTITY_OFFSET = 42;
    static final int SERVER_PROOF_OFFSET = 42;
    static final int SERVER_IDENTITY_OFFSET = 74;
    static final int CLIENT_PROOF_OFFSET = 2;
    static final int CLIENT_PROOF_LENGTH = 34;

    enum Kind {
        CLIENT_HELLO(1), SERVER_HELLO(2), CLIENT_PROOF(3), SERVER_ACCEPT(4), SERVER_DECLINE(5);

        final int code;

        Kind(int code) {
            this.code = code;
        }
    }

    /** A decoded handshake message. */
    sealed interface Message permits ClientHello, ServerHello, ClientProof, ServerVerdict {
    }

    record ClientHello(long job, byte[] nonce, PeerIdentity identity) implements Message {
    }

    record ServerHello(long job, byte[] nonce, byte[] proof, PeerIdentity identity) implements Message {
    }

    record ClientProof(byte[] proof) implements Message {
    }

    /** The server's last message: whether the connection is the pair's (accept) or its own one wins (decline). */
    record ServerVerdict(boolean accepted) implements Message {
    }

    /** Why bytes are not the handshake message expected; the connection is closed and this counted. */
    static final class Refused extends Exception {

        private static final long serialVersionUID = 1L;
        final transient Rejection rejection;

        Refused(Rejection rejection, String detail) {
            super(detail, null, false, false);
            this.rejection = rejection;
        }
    }

    private Hello() {
    }

    static Frame clientHello(long job, byte[] nonce, PeerIdentity identity) {
        return frame(job, start(Kind.CLIENT_HELLO).appendLong(job).appendBytes(nonce).appendBytes(identity.encoded()));
    }

    static Frame serverHello(long job, byte[] nonce, byte[] proof, PeerIdentity identity) {
        return frame(job, start(Kind.SERVER_HELLO).appendLong(job).appendBytes(nonce).appendBytes(proof)
                .appendBytes(identity.encoded()));
    }

    static Frame clientProof(long job, byte[] proof) {
        return frame(job, start(Kind.CLIENT_PROOF).appendBytes(proof));
    }

    static Frame serverAccept(long job) {
        return frame(job, start(Kind.SERVER_ACCEPT));
    }

    static Frame serverDecline(long job) {
        return frame(job, start(Kind.SERVER_DECLINE));
    }

    /**
     * Decodes a handshake message, which must be of kind {@code expected}; where {@link Kind#SERVER_ACCEPT} is
     * expected, {@link Kind#SERVER_DECLINE} is too (the server's verdict).
     */
    static Message decode(Frame frame, Kind expected) throws Refused {
        if (frame.type() != FrameType.HELLO) {
            throw new Refused(Rejection.FRAME_BEFORE_AUTHENTICATION, "a " + frame.type() + " frame before the handshake"
                    + " completed");
        }
        Buffer payload = frame.payload();
        if (payload.length() < 2) {
            throw new Refused(Rejection.HANDSHAKE_MALFORMED, "HELLO payload of " + payload.length() + " bytes");
        }
        int version = payload.getUnsignedByte(VERSION_OFFSET);
        if (version != VERSION) {
            throw new Refused(Rejection.HANDSHAKE_VERSION, "handshake protocol version " + version + ", this node speaks "
                    + VERSION + ": run the same Canopy release on every node");
        }
        int kind = payload.getUnsignedByte(KIND_OFFSET);
        boolean verdict = expected == Kind.SERVER_ACCEPT && kind == Kind.SERVER_DECLINE.code;
        if (kind != expected.code && !verdict) {
            throw new Refused(Rejection.HANDSHAKE_MALFORMED, "handshake message of kind " + kind + ", expected "
                    + expected);
        }
        try {
            return switch (expected) {
                case CLIENT_HELLO -> new ClientHello(job(payload, CLIENT_IDENTITY_OFFSET), bytes(payload, NONCE_OFFSET,
                        NONCE_BYTES), PeerIdentity.read(payload, CLIENT_IDENTITY_OFFSET));
                case SERVER_HELLO -> new ServerHello(job(payload, SERVER_IDENTITY_OFFSET), bytes(payload, NONCE_OFFSET,
                        NONCE_BYTES), bytes(payload, SERVER_PROOF_OFFSET, PROOF_BYTES),
                        PeerIdentity.read(payload, SERVER_IDENTITY_OFFSET));
                case CLIENT_PROOF -> {
                    if (payload.length() != CLIENT_PROOF_LENGTH) {
                        throw new IllegalArgumentException("client proof of " + payload.length() + " bytes, expected "
                                + CLIENT_PROOF_LENGTH);
                    }
                    yield new ClientProof(bytes(payload, CLIENT_PROOF_OFFSET, PROOF_BYTES));
                }
                case SERVER_ACCEPT, SERVER_DECLINE -> {
                    if (payload.length() != 2) {
                        throw new IllegalArgumentException("server verdict of " + payload.length() + " bytes, expected 2");
                    }
                    yield new ServerVerdict(kind == Kind.SERVER_ACCEPT.code);
                }
            };
        } catch (IllegalArgumentException e) {
            throw new Refused(Rejection.HANDSHAKE_MALFORMED, e.getMessage());
        }
    }

    private static long job(Buffer payload, int identityOffset) {
        if (payload.length() < identityOffset) {
            throw new IllegalArgumentException("handshake message of " + payload.length() + " bytes, shorter than its "
                    + identityOffset + " fixed bytes");
        }
        return payload.getLong(JOB_OFFSET);
    }

    private static byte[] bytes(Buffer payload, int offset, int length) {
        return payload.getBytes(offset, offset + length);
    }

    private static Buffer start(Kind kind) {
        return Buffer.buffer(128).appendUnsignedByte((short) kind.code).appendUnsignedByte((short) VERSION);
    }

    private static Frame frame(long job, Buffer payload) {
        return new Frame(FrameType.HELLO, job, 0, 0, Frame.UNKNOWN_RANK, Frame.UNKNOWN_RANK, 0, 0, payload);
    }
}
