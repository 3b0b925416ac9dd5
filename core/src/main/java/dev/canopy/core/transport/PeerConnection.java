package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeLogger;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.socket.DuplexChannel;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * This node's side of the one connection to one peer, with the ordered write queue of the frames to it.
 * The connection is either one this node dialled or one the peer dialled that the transport hands over
 * ({@link #adopt}); frames go both ways on it. Dials on the first frame when there is none, runs the
 * client side of the {@link Handshake} (frames wait until the peer proved it knows the job secret and is
 * the member we dialled, and accepted the connection as the pair's: it declines it when its own dial wins
 * the tie-break, and this side then waits for that one), re-connects (bounded attempts, doubling
 * back-off) after the connection drops or the handshake fails, and writes frames strictly in the
 * order they were queued.
 *
 * <p>Owned by the transport's context: every method runs there.
 */
final class PeerConnection {

    private enum State { IDLE, CONNECTING, HANDSHAKING, CONNECTED, CLOSED }

    /** How long a connection this node shuts down waits for the peer to close its end ({@link #shutDown}). */
    private static final long LINGER_MILLIS = 1000;

    /** Frames queued within one event-loop turn are written together up to this many bytes. */
    private static final int BATCH_BYTES = 64 * 1024;

    /**
     * The largest piece of direct memory a batch is copied into, a size the socket's pool recycles: a 1 MiB
     * buffer was a fresh allocation per frame, zeroed twice (by the JDK and by the kernel's page faults).
     */
    private static final int PIECE_BYTES = 64 * 1024;

    /** A frame waiting for the socket: its header and payload are written back to back. */
    private record PendingWrite(Buffer header, Buffer payload, Promise<Void> promise, long queuedAtNanos) {

        int length() {
            return header.length() + payload.length();
        }
    }

    private final Member peer;
    private final Vertx vertx;
    private final Context context;
    private final NetClient client;
    private final TransportOptions options;
    private final Handshake handshake;
    private final TransportSecurity security;
    private final Rejections rejections;
    private final NodeLogger log;
    private final ArrayDeque<PendingWrite> waiting = new ArrayDeque<>();
    /** Producers waiting for the bytes held to drop under the write-queue limit ({@link #drained}). */
    private final List<Promise<Void>> drainWaiters = new ArrayList<>();

    private final FrameReader.Settings reading;
    private final Events events;

    private State state = State.IDLE;
    private NetSocket socket;
    /** Whether {@link #socket} is a connection this node dialled (else the peer dialled it). */
    private boolean dialled;
    /** Reads the peer's frames on {@link #socket} when this node dialled it (the transport reads an adopted one). */
    private FrameReader frames;
    /** Counts dials, so that a dial overtaken by an adopted connection is recognised when it completes. */
    private int dials;
    private int failedAttempts;
    private long waitingBytes;
    private long unflushedBytes;
    private long drainTimer = -1;
    private long reconnectTimer = -1;
    private long handshakeTimer = -1;
    private byte[] clientNonce;
    /** The server's hello arrived and our proof went out; its accept is next. */
    private boolean proofSent;
    /** Whether the server sent anything on this connection yet (a TLS record first means it runs with TLS). */
    private boolean anyBytes;
    private HandshakeReader reader;
    private boolean pumping;
    private boolean pumpScheduled;

    /** What every outbound connection of one transport shares. */
    record Settings(NetClient client, TransportOptions options, Handshake handshake, FrameReader.Settings reading,
                    Events events) {
    }

    /** What the transport learns about the connections this node dialled. */
    interface Events {

        /** The peer accepted a connection this node dialled as the pair's: its frames come on it from now on. */
        void dialledOpened(NodeAddress peer);

        /**
         * A connection this node dialled that the peer had accepted closed, after every frame read from it was
         * handed up; {@code inUse} when it was still the pair's connection (this node did not close it itself).
         */
        void dialledClosed(NodeAddress peer, NetSocket socket, boolean inUse);

        /** Takes the connection the peer dialled and this node accepted but does not use yet, if there is one. */
        Optional<NetSocket> accepted(NodeAddress peer);
    }

    PeerConnection(Member peer, Context context, Settings settings) {
        this.peer = peer;
        this.vertx = context.owner();
        this.context = context;
        this.client = settings.client();
        this.options = settings.options();
        this.handshake = settings.handshake();
        this.security = settings.reading().security();
        this.rejections = settings.reading().rejections();
        this.log = rejections.log();
        this.reading = settings.reading();
        this.events = settings.events();
    }

    NodeAddress address() {
        return peer.address();
    }

    /** Bytes held for this peer: waiting for the socket plus written but not yet flushed. */
    long heldBytes() {
        return waitingBytes + unflushedBytes;
    }

    /**
     * Queues a frame behind those already queued. A full queue is not an error: the frame waits its turn, and the
     * returned future completes once it is written (a producer that wants to hold less waits for {@link #drained}
     * before sending); it fails only if the peer does not drain within the drain timeout or is unavailable.
     */
    Future<Void> enqueue(Buffer header, Buffer payload) {
        int length = header.length() + payload.length();
        if (state == State.CLOSED) {
            return Future.failedFuture(new PeerUnavailableException(peer.id(), "connection closed"));
        }
        Promise<Void> promise = Promise.promise();
        waiting.add(new PendingWrite(header, payload, promise, System.nanoTime()));
        waitingBytes += length;
        if (state == State.CONNECTED) {
            pumpSoon();
        } else {
            if (state == State.IDLE) {
                connect();
            }
            armDrainTimer();
        }
        return promise.future();
    }

    /**
     * Completes once the bytes held for this peer are under {@link TransportOptions#writeQueueLimitBytes} (at once if
     * they are, or if the connection is closed: a send then fails by itself).
     */
    Future<Void> drained() {
        if (state == State.CLOSED || heldBytes() < options.writeQueueLimitBytes()) {
            return Future.succeededFuture();
        }
        Promise<Void> drained = Promise.promise();
        drainWaiters.add(drained);
        return drained.future();
    }

    /**
     * Whether this node's own dial is the pair's connection or may become it: a dial under way (or waiting to be
     * retried), or a dialled connection in use. The peer's dial is declined then when this node's wins the
     * tie-break.
     */
    /** Whether frames go on a connection now (to be replaced only once it closes). */
    boolean inUse() {
        return state == State.CONNECTED;
    }

    Optional<NetSocket> socketInUse() {
        return inUse() ? Optional.of(socket) : Optional.empty();
    }

    boolean holdsOwnDial() {
        return state == State.CONNECTING || state == State.HANDSHAKING || (state == State.CONNECTED && dialled);
    }

    /**
     * Takes a connection the peer dialled, authenticated and accepted as the pair's, for the frames to the peer
     * (the transport's {@link InboundConnection} reads the peer's frames on it) while none is in use. A dial of
     * ours under way is closed; frames queued wait for nothing more.
     */
    void adopt(NetSocket adopted) {
        cancelHandshakeTimer();
        cancelReconnectTimer();
        NetSocket previous = socket;
        socket = adopted;
        dialled = false;
        frames = null;
        state = State.CONNECTED;
        failedAttempts = 0;
        if (previous != null) {
            previous.close();
        }
        log.debug("adopted the connection {} at {} dialled to this node", peer.id(), peer.address());
        pump();
    }

    /**
     * A connection this node did not dial itself, or dialled under an earlier {@code PeerConnection}, closed (the
     * peer's frames on it are all handed up); returns whether it was still in use, which then ends as if the peer had
     * dropped it: frames still queued are sent on a new connection.
     */
    boolean socketClosed(NetSocket closed) {
        if (closed != socket) {
            return false;
        }
        onClosed(closed);
        return true;
    }

    /**
     * Fails everything queued with {@code failure}; the connection is not used again. A connection in use is returned,
     * open, for the peer's last frames to be read on it (a peer that is declared gone may still have frames in
     * flight); anything else is closed.
     */
    Optional<NetSocket> detach(RuntimeException failure) {
        boolean inUse = state == State.CONNECTED;
        NetSocket open = socket;
        state = State.CLOSED;
        cancelTimers();
        failWaiting(failure);
        socket = null;
        if (inUse) {
            return Optional.of(open);
        }
        if (open != null) {
            open.close();
        }
        return Optional.empty();
    }

    /** Fails everything queued with {@code failure} and closes the socket; the connection is not used again. */
    Future<Void> close(RuntimeException failure) {
        state = State.CLOSED;
        cancelTimers();
        failWaiting(failure);
        NetSocket open = socket;
        socket = null;
        return open == null ? Future.succeededFuture() : open.close();
    }

    /**
     * Hands the frames already queued to the socket, then closes it once they are written (waiting at most the
     * drain timeout); frames the socket cannot take fail with {@code failure}. A node that leaves says goodbye
     * and closes at once: without this the goodbye, queued for the next pump, would be failed by the close,
     * and the peer would see a connection drop where it should see a goodbye.
     */
    Future<Void> closeAfterQueuedWrites(RuntimeException failure) {
        if (state != State.CONNECTED) {
            return close(failure);
        }
        pumpWhileWritable();
        NetSocket open = socket;
        socket = null;
        close(failure);
        if (frames != null) {
            frames.stop();
        }
        return shutDown(open);
    }

    /**
     * Ends a connection both sides write on without losing the last frames: after what was written, only our
     * direction is shut (a FIN follows the last byte), and the socket closes when the peer closes its end, or after
     * {@value #LINGER_MILLIS} ms. Closing at once would make the kernel answer with a reset when the peer's frames are
     * still unread here, and a reset discards what is still in the send queue (a goodbye).
     */
    private Future<Void> shutDown(NetSocket open) {
        Channel channel = ((NetSocketInternal) open).channelHandlerContext().channel();
        Promise<Void> closed = Promise.promise();
        channel.closeFuture().addListener(done -> closed.tryComplete());
        long timer = vertx.setTimer(LINGER_MILLIS, id -> open.close());
        closed.future().onComplete(done -> vertx.cancelTimer(timer));
        // Read (and drop) whatever the peer still sends, so that nothing is left unread when the socket closes.
        open.resume();
        open.write(Buffer.buffer()).onComplete(written -> {
            if (channel instanceof DuplexChannel duplex) {
                duplex.shutdownOutput();
            } else {
                open.close();
            }
        });
        return closed.future();
    }

    private void connect() {
        Optional<NetSocket> accepted = events.accepted(peer.address());
        if (accepted.isPresent()) {
            adopt(accepted.get());
            return;
        }
        state = State.CONNECTING;
        NodeAddress address = peer.address();
        int dial = ++dials;
        client.connect(address.tcpPort(), address.host()).onComplete(result -> {
            if (state != State.CONNECTING || dial != dials) {
                // Closed, or overtaken: the peer's own connection was adopted meanwhile.
                if (result.succeeded()) {
                    result.result().close();
                }
            } else if (result.succeeded()) {
                onConnected(result.result());
            } else if (options.tls().isPresent() && TransportTls.isTlsFailure(result.cause())) {
                String detail = TransportTls.clientDetail(result.cause());
                rejections.reject(Rejection.TLS_HANDSHAKE_FAILED, remoteHost(), "connection to " + peer.id(), detail);
                onConnectFailed(new IllegalStateException(Rejection.TLS_HANDSHAKE_FAILED + ", " + detail));
            } else {
                onConnectFailed(result.cause());
            }
        });
    }

    private void onConnected(NetSocket connected) {
        if (connected.localAddress().equals(connected.remoteAddress())) {
            // TCP simultaneous open: a connect to an unused local port in the ephemeral range can
            // pick that very port as its source and connect to itself. Nobody listens there.
            connected.close();
            onConnectFailed(new IllegalStateException("connected to itself: nobody listens on "
                    + peer.address().host() + ":" + peer.address().tcpPort()));
            return;
        }
        socket = connected;
        state = State.HANDSHAKING;
        connected.closeHandler(v -> onClosed(connected));
        connected.exceptionHandler(e -> log.debug("connection to {} at {}: {}", peer.id(), peer.address(), e.toString()));
        connected.handler(chunk -> onHandshakeBytes(connected, chunk));
        clientNonce = Handshake.nonce();
        proofSent = false;
        anyBytes = false;
        reader = new HandshakeReader();
        Optional<String> tlsRefusal = options.tls().flatMap(tls -> TransportTls.refusal(tls, connected));
        if (tlsRefusal.isPresent()) {
            handshakeFailed(Rejection.TLS_WRONG_PEER_NAME, tlsRefusal.get());
            return;
        }
        connected.write(FrameCodec.encode(Hello.clientHello(handshake.job(), clientNonce, handshake.self())));
        handshakeTimer = vertx.setTimer(security.handshakeTimeout().toMillis(), id -> {
            handshakeTimer = -1;
            handshakeFailed(Rejection.HANDSHAKE_TIMEOUT, "no answer to the handshake within "
                    + security.handshakeTimeout().toMillis() + " ms");
        });
    }

    private void onHandshakeBytes(NetSocket from, Buffer chunk) {
        if (from != socket || state != State.HANDSHAKING) {
            return;
        }
        if (!anyBytes && options.tls().isEmpty() && TransportTls.isTlsRecord(chunk)) {
            handshakeFailed(Rejection.TLS_UNEXPECTED, TransportTls.unexpectedTlsDetail("the peer " + peer.id()));
            return;
        }
        anyBytes = true;
        HandshakeReader.Step step = reader.feed(chunk);
        if (step instanceof HandshakeReader.Refused refused) {
            handshakeFailed(refused.rejection(), refused.detail());
        } else if (step instanceof HandshakeReader.Message message) {
            reader = new HandshakeReader();
            try {
                if (proofSent) {
                    onVerdict((Hello.ServerVerdict) Hello.decode(message.frame(), Hello.Kind.SERVER_ACCEPT),
                            message.rest());
                    return;
                } else {
                    onServerHello((Hello.ServerHello) Hello.decode(message.frame(), Hello.Kind.SERVER_HELLO));
                }
            } catch (Hello.Refused refused) {
                handshakeFailed(refused.rejection, refused.getMessage());
                return;
            }
            if (message.rest().length() > 0) {
                onHandshakeBytes(from, message.rest());
            }
        }
    }

    private void onServerHello(Hello.ServerHello hello) throws Hello.Refused {
        if (hello.job() != handshake.job()) {
            throw new Hello.Refused(Rejection.HANDSHAKE_WRONG_JOB, "the server belongs to job key "
                    + Long.toHexString(hello.job()) + ", not to " + security.job());
        }
        if (!handshake.serverProofValid(clientNonce, hello)) {
            throw new Hello.Refused(Rejection.HANDSHAKE_BAD_PROOF, "the server's proof is wrong: it does not know the"
                    + " secret of job " + security.job());
        }
        if (!hello.identity().address().equals(peer.address())) {
            throw new Hello.Refused(Rejection.HANDSHAKE_WRONG_PEER, "the server is " + hello.identity()
                    + ", not member " + peer.id() + " at " + peer.address());
        }
        socket.write(FrameCodec.encode(Hello.clientProof(handshake.job(), handshake.clientProof(clientNonce, hello))));
        proofSent = true;
    }

    private void onVerdict(Hello.ServerVerdict verdict, Buffer rest) {
        if (verdict.accepted()) {
            accepted(rest);
            return;
        }
        // The peer's own dial to us wins the tie-break; the transport adopts that connection when it arrives. The
        // peer is alive and dialling, so this is no failed attempt; only if its dial has not come within the
        // handshake timeout (it failed) is ours tried again.
        cancelHandshakeTimer();
        NetSocket open = socket;
        socket = null;
        state = State.CONNECTING;
        open.close();
        log.debug("{} declined our connection: its own dial to this node wins; waiting for it", peer.id());
        reconnectTimer = vertx.setTimer(security.handshakeTimeout().toMillis(), id -> {
            reconnectTimer = -1;
            if (state == State.CONNECTING) {
                connect();
            }
        });
    }

    /**
     * The server accepted our proof and the connection as the pair's: frames may go, and the peer's come on it
     * ({@code rest} is what followed the accept).
     */
    private void accepted(Buffer rest) {
        cancelHandshakeTimer();
        NetSocket connected = socket;
        FrameReader reader = new FrameReader(connected, peer.address(), peer.id() + " at " + peer.address(), reading);
        frames = reader;
        connected.handler(reader::feed);
        // Replaces onClosed: the peer's frames read on it are handed up before the close is seen.
        connected.closeHandler(v -> {
            reader.stop();
            boolean inUse = connected == socket;
            if (inUse) {
                onClosed(connected);
            }
            events.dialledClosed(peer.address(), connected, inUse);
        });
        state = State.CONNECTED;
        dialled = true;
        failedAttempts = 0;
        log.debug("connected to {} at {}", peer.id(), peer.address());
        events.dialledOpened(peer.address());
        pump();
        if (rest.length() > 0) {
            reader.feed(rest);
        }
    }

    /** The handshake failed: counted, the socket closed, and another attempt made after the back-off. */
    private void handshakeFailed(Rejection rejection, String detail) {
        if (state != State.HANDSHAKING) {
            return;
        }
        cancelHandshakeTimer();
        rejections.reject(rejection, remoteHost(), "connection to " + peer.id(), detail);
        NetSocket open = socket;
        socket = null;
        state = State.CONNECTING;
        open.close();
        onConnectFailed(new IllegalStateException("handshake with " + peer.id() + " failed: " + rejection + ", "
                + detail));
    }

    private String remoteHost() {
        return peer.address().host();
    }

    private void cancelHandshakeTimer() {
        if (handshakeTimer != -1) {
            vertx.cancelTimer(handshakeTimer);
            handshakeTimer = -1;
        }
    }

    private void onConnectFailed(Throwable cause) {
        failedAttempts++;
        if (failedAttempts < options.reconnectAttempts()) {
            long backoffMs = options.reconnectBackoff().toMillis() << Math.min(failedAttempts - 1, 16);
            log.debug("connecting to {} at {} failed ({}), attempt {} of {}; retrying in {} ms", peer.id(),
                    peer.address(), cause.toString(), failedAttempts, options.reconnectAttempts(), backoffMs);
            reconnectTimer = vertx.setTimer(Math.max(1, backoffMs), id -> {
                reconnectTimer = -1;
                if (state == State.CONNECTING) {
                    connect();
                }
            });
            return;
        }
        String reason = "cannot connect to " + peer.address().host() + ":" + peer.address().tcpPort() + " after "
                + failedAttempts + " attempts (" + cause.getMessage() + ")";
        log.warn("{}: failing {} queued frames", reason, waiting.size());
        state = State.IDLE;
        failedAttempts = 0;
        failWaiting(new PeerUnavailableException(peer.id(), reason));
    }

    private void onClosed(NetSocket closed) {
        if (closed != socket) {
            return;
        }
        socket = null;
        if (state == State.CLOSED) {
            return;
        }
        if (state == State.HANDSHAKING) {
            cancelHandshakeTimer();
            state = State.CONNECTING;
            onConnectFailed(new IllegalStateException("the peer closed the connection during the handshake"
                    + " (does it have the same job secret?)" + (options.tls().isEmpty() && !anyBytes
                            ? " Or does it run with TLS (--tls) while this node does not? Its log says which" : "")));
            return;
        }
        state = State.IDLE;
        log.info("connection to {} at {} closed; {} frames waiting", peer.id(), peer.address(), waiting.size());
        if (!waiting.isEmpty()) {
            connect();
        }
    }

    /**
     * Pumps once the current event-loop task is done, so the frames it queues (a burst of sends, or
     * answers to a batch of received frames) leave in as few writes as possible.
     */
    private void pumpSoon() {
        if (!pumpScheduled) {
            pumpScheduled = true;
            context.runOnContext(v -> {
                pumpScheduled = false;
                pump();
            });
        }
    }

    /**
     * Writes waiting frames, in order, while the socket's unflushed bytes stay under the high-water
     * mark. Write futures often complete inside {@code write}; the guard turns that recursion into
     * this loop.
     */
    private void pump() {
        if (pumping) {
            return;
        }
        pumping = true;
        try {
            pumpWhileWritable();
        } finally {
            pumping = false;
        }
        // Only frames the socket cannot take now wait, and only they need the drain deadline.
        if (waiting.isEmpty()) {
            cancelDrainTimer();
        } else {
            armDrainTimer();
        }
        notifyIfDrained();
    }

    private void notifyIfDrained() {
        if (!drainWaiters.isEmpty() && (state == State.CLOSED || heldBytes() < options.writeQueueLimitBytes())) {
            List<Promise<Void>> waiters = List.copyOf(drainWaiters);
            drainWaiters.clear();
            waiters.forEach(Promise::complete);
        }
    }

    private void pumpWhileWritable() {
        while (state == State.CONNECTED && !waiting.isEmpty() && unflushedBytes < options.writeQueueHighWaterBytes()) {
            List<PendingWrite> batch = nextBatch();
            int length = batch.stream().mapToInt(PendingWrite::length).sum();
            waitingBytes -= length;
            unflushedBytes += length;
            write(batch, length).onComplete(result -> {
                unflushedBytes -= length;
                for (PendingWrite write : batch) {
                    if (result.succeeded()) {
                        write.promise().complete();
                    } else {
                        write.promise().fail(new PeerUnavailableException(peer.id(),
                                "connection lost before the frame was flushed (" + result.cause().getMessage() + ")"));
                    }
                }
                pump();
            });
        }
    }

    /** Small frames queued together go out in one write (one system call); a large one alone. */
    private List<PendingWrite> nextBatch() {
        List<PendingWrite> batch = new ArrayList<>();
        int bytes = 0;
        while (!waiting.isEmpty() && (batch.isEmpty() || bytes + waiting.peek().length() <= BATCH_BYTES)) {
            PendingWrite write = waiting.poll();
            bytes += write.length();
            batch.add(write);
        }
        return batch;
    }

    /**
     * Writes a batch as one direct buffer from the socket's pool, each header and payload copied into it once.
     * That is the one copy the socket makes of heap bytes anyway, made by us: handed a chain of heap buffers
     * (a {@code BufferChain}, before 2026-11-28), Netty first merged the chain into a fresh, zeroed heap array and
     * then copied that into direct memory, two copies and a large allocation per frame.
     */
    private Future<Void> write(List<PendingWrite> batch, int length) {
        NetSocketInternal internal = (NetSocketInternal) socket;
        ByteBuf out = directBuffer(internal.channelHandlerContext().alloc(), length);
        for (PendingWrite write : batch) {
            copyInto(write.header(), out);
            copyInto(write.payload(), out);
        }
        return internal.writeMessage(out);
    }

    /**
     * {@code length} bytes of direct memory to be filled from index 0: one pooled buffer, or for a large batch a
     * chain of {@value #PIECE_BYTES}-byte pieces, which the socket writes with one gathering write.
     */
    private static ByteBuf directBuffer(ByteBufAllocator allocator, int length) {
        if (length <= PIECE_BYTES) {
            return allocator.directBuffer(length);
        }
        CompositeByteBuf pieces = allocator.compositeDirectBuffer(Integer.MAX_VALUE);
        for (int offset = 0; offset < length; offset += PIECE_BYTES) {
            int size = Math.min(PIECE_BYTES, length - offset);
            // Counted as full so that the chain's capacity covers it; copyInto overwrites every byte.
            pieces.addComponent(false, allocator.directBuffer(size).writerIndex(size));
        }
        return pieces;
    }

    private static void copyInto(Buffer part, ByteBuf out) {
        if (part instanceof BufferInternal internal) {
            ByteBuf bytes = internal.getByteBuf();
            int length = bytes.readableBytes();
            // getBytes into the target, not out.writeBytes(bytes): the pooled buffer's writeBytes asks a
            // composite source for one NIO buffer, which merges it into a new array first.
            bytes.getBytes(bytes.readerIndex(), out, out.writerIndex(), length);
            out.writerIndex(out.writerIndex() + length);
        } else {
            out.writeBytes(part.getBytes());
        }
    }

    private void armDrainTimer() {
        if (drainTimer != -1 || waiting.isEmpty() || state == State.CLOSED) {
            return;
        }
        long deadline = waiting.peek().queuedAtNanos() + options.drainTimeout().toNanos();
        long delayMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()) + 1);
        drainTimer = vertx.setTimer(delayMs, id -> {
            drainTimer = -1;
            expireWaiting();
            armDrainTimer();
        });
    }

    private void expireWaiting() {
        long now = System.nanoTime();
        long timeout = options.drainTimeout().toNanos();
        while (!waiting.isEmpty() && now - waiting.peek().queuedAtNanos() >= timeout) {
            PendingWrite expired = waiting.poll();
            waitingBytes -= expired.length();
            expired.promise().fail(new BackPressureException(peer.id(), heldBytes(), "the frame waited "
                    + options.drainTimeout().toMillis() + " ms (TransportOptions.drainTimeout) for the socket to drain"));
        }
        notifyIfDrained();
    }

    private void failWaiting(RuntimeException failure) {
        PendingWrite write;
        while ((write = waiting.poll()) != null) {
            write.promise().fail(failure);
        }
        waitingBytes = 0;
        cancelDrainTimer();
        notifyIfDrained();
    }

    private void cancelDrainTimer() {
        if (drainTimer != -1) {
            vertx.cancelTimer(drainTimer);
            drainTimer = -1;
        }
    }

    private void cancelTimers() {
        cancelDrainTimer();
        cancelHandshakeTimer();
        cancelReconnectTimer();
    }

    private void cancelReconnectTimer() {
        if (reconnectTimer != -1) {
            vertx.cancelTimer(reconnectTimer);
            reconnectTimer = -1;
        }
    }
}
