package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.security.SecurityCounters;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import java.time.Duration;

/**
 * Moves frames between nodes: reliable, ordered frames over TCP and unreliable datagrams over UDP.
 *
 * <p>Guarantees of {@link #send}: frames to one peer arrive in the order they were sent (FIFO per
 * pair), over one connection per peer that is reused and re-established after a transient failure.
 * The returned future completes when the frame has been written to the socket; it fails with
 * {@link PeerUnavailableException} when the peer was declared gone or cannot be reached after a
 * bounded number of reconnect attempts, and with {@link BackPressureException} when the peer has not
 * drained its write queue within the drain timeout. A full write queue is not a failure: the frame
 * waits its turn, and a producer that wants to hold less before sending more waits for
 * {@link #drained} (an expected outcome is a value to wait for, not an exception that aborts a
 * collective). A failed frame is not retried by the transport.
 *
 * <p>Only members of the transport's job get in: connections start with a mutual challenge-response
 * and frames and datagrams that fail a check are dropped and counted ({@link #securityCounters()}); see
 * {@link TransportSecurity}.
 *
 * <p>Layers (WAN emulation, fault injection) implement this interface and wrap another transport;
 * see {@link TransportLayer}.
 *
 * <p>Threading: every method may be called from any thread. Handlers run, and futures complete,
 * on {@link #context()}.
 */
public interface Transport {

    /** Where this transport listens (the ports actually bound when 0 was asked for). */
    NodeAddress localAddress();

    /** The Vert.x context that owns this transport's state; handlers run on it. */
    Context context();

    /**
     * Sends a frame reliably to {@code to}. The transport may read the payload until the returned
     * future completes; do not modify it before.
     */
    Future<Void> send(Member to, Frame frame);

    /**
     * Completes, on {@link #context()}, once the bytes this transport holds for {@code to} (queued and not yet
     * flushed) are under their limit ({@link TransportOptions#writeQueueLimitBytes}), at once if they are; like
     * Vert.x's {@code writeQueueFull} and {@code drainHandler} in one future. Never fails: a peer that is gone
     * makes the next send fail instead.
     */
    Future<Void> drained(Member to);

    /**
     * Sends a frame as one UDP datagram: no retransmission, no order. Fails with
     * {@link IllegalArgumentException} when the frame does not fit one datagram
     * ({@link TransportOptions#maxDatagramBytes()}).
     */
    Future<Void> sendDatagram(Member to, Frame frame);

    /** Receives every reliable frame (except connection handshakes). Replaces the previous handler. */
    void frameHandler(Handler<Frame> handler);

    /**
     * Receives every well-formed, authentic datagram seen for the first time, with the address it came from.
     * Replaces the previous handler.
     */
    void datagramHandler(Handler<Datagram> handler);

    /**
     * The peer has left or failed (membership says so): queued and future sends to it fail fast with
     * {@link PeerUnavailableException} carrying {@code reason}, and its connection is closed.
     */
    void peerGone(NodeId peer, String reason);

    /** The peer has joined again: sends to it are attempted again. */
    void peerBack(NodeId peer);

    /**
     * Waits until every reliable frame {@code peer} wrote to this node has been handed to the frame
     * handler, as far as the transport can tell: the peer had connected (it authenticated as
     * {@code peer.address()}) and all its connections to this node have closed or been reset. For a
     * peer that has left, that is the moment nothing more can arrive from it. Completes with
     * {@link InboundEnd#TIMED_OUT} after {@code atMost} when a connection stays open or the peer never
     * connected, and at once when the connections have already closed.
     */
    Future<InboundEnd> awaitInboundEnd(Member peer, Duration atMost);

    /** How many frames, datagrams and connections from the wire this transport refused, by reason. */
    SecurityCounters securityCounters();

    /**
     * Tells {@code handler} the address (as its HELLO announced it) of every peer whose connection to
     * this node closed or was reset, after the last frame read from that connection was handed up.
     * Failure detection takes it as evidence unless the peer said goodbye first. Replaces the previous
     * handler; transports that cannot tell ignore it.
     */
    default void inboundClosedHandler(Handler<NodeAddress> handler) {
    }

    /** Closes sockets and fails what is still queued; completes when everything is released. */
    Future<Void> close();
}
