package dev.canopy.core.internal.security;

/** Why the transport refused bytes from the wire; each is counted in {@link SecurityCounters}. */
public enum Rejection {
    /** A connection's first bytes are not a well-formed handshake message, or the wrong one for its step. */
    HANDSHAKE_MALFORMED,
    /** The peer speaks another handshake protocol version. */
    HANDSHAKE_VERSION,
    /** The peer belongs to another job. */
    HANDSHAKE_WRONG_JOB,
    /** The peer's proof is wrong: it does not know the job secret (or uses another job's). */
    HANDSHAKE_BAD_PROOF,
    /** The server we dialled proved the secret but claims another address than the member we meant. */
    HANDSHAKE_WRONG_PEER,
    /** The peer did not finish the handshake before the deadline. */
    HANDSHAKE_TIMEOUT,
    /** Too many connections were still in their handshake; the oldest was closed. */
    HANDSHAKE_EVICTED,
    /** A frame other than the handshake before the connection was authenticated. */
    FRAME_BEFORE_AUTHENTICATION,
    /** An authenticated peer sent bytes that are not a frame. */
    FRAME_MALFORMED,
    /** An authenticated peer sent a frame claiming another member's rank. */
    FRAME_WRONG_SOURCE,
    /** A peer without TLS connected to this node, which requires TLS ({@code TransportOptions.tls}). */
    TLS_PLAINTEXT_PEER,
    /** A peer started a TLS handshake with this node, which runs without TLS. */
    TLS_UNEXPECTED,
    /**
     * The TLS handshake failed: the peer's certificate is not from a trusted CA, expired, or the peer
     * does not offer TLS 1.3.
     */
    TLS_HANDSHAKE_FAILED,
    /** The peer's certificate is from a trusted CA but does not carry the required peer name. */
    TLS_WRONG_PEER_NAME,
    /** A datagram too short, or whose envelope or frame is malformed. */
    DATAGRAM_MALFORMED,
    /** A datagram whose MAC is wrong: forged, corrupted, or from another job. */
    DATAGRAM_BAD_MAC,
    /** A datagram with a valid MAC seen before, or too old for the replay window. */
    DATAGRAM_REPLAYED
}
