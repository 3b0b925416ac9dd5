package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.DecodeResult;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.frame.MalformedFrame;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.internal.security.SecurityCounters;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeLogger;
import dev.canopy.core.security.tls.TlsSettings;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.datagram.DatagramPacket;
import io.vertx.core.datagram.DatagramSocket;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * The real transport: a TCP server for reliable frames, one TCP connection per peer, used in both
 * directions ({@link PeerConnection} writes on it, a {@link FrameReader} reads), and a UDP socket for
 * datagrams, all owned by one Vert.x context.
 *
 * <p>Between two nodes there is one TCP connection, as in MPI libraries: whichever node sends first
 * dials, and the other adopts the connection it accepted for its own frames, so a reply carries the
 * TCP acknowledgement of the request (with a connection per direction every message cost an extra
 * pure-ACK packet). When both dial at once, the connection dialled by the node with the lower address
 * ({@link #PAIR_ORDER}) wins: the higher node's acceptor adopts it, the lower node's acceptor declines the
 * other in the handshake's last message, before any frame went on it, and the higher node then waits
 * for the winner with its frames queued. So there is only ever one connection that carries frames, and
 * frames keep their order.
 *
 * <p>Only the job's members get in ({@link TransportSecurity}): every connection starts with a mutual
 * challenge-response ({@link Handshake}) and carries frames only after it; each frame's source must
 * be the authenticated peer ({@link SourceCheck}); every datagram is sealed with a MAC and a sequence
 * number ({@link DatagramSeal}). Whatever fails a check is dropped, counted ({@link #securityCounters()})
 * and logged at a bounded rate; a connection that sent it is closed. At most
 * {@value #MAX_PENDING_HANDSHAKES} accepted connections may be in their handshake at once; beyond that
 * the oldest is closed.
 */
public final class VertxTransport implements Transport {

    private final Context context;
    private final TransportOptions options;
    private final NodeLogger log;
    static final int MAX_PENDING_HANDSHAKES = 1024;
    /**
     * Vert.x uses one number for SO_RCVBUF and for the buffer each datagram is read into (left unset, that
     * buffer is 2 KiB and longer datagrams are cut): at least a whole UDP datagram (65,507 bytes), and a
     * kernel buffer that holds a few of them (more than Linux's 208 KiB default).
     */
    static final int DATAGRAM_RECEIVE_BUFFER_BYTES = 256 * 1024;
    /** Orders the members of a pair for the tie-break between simultaneous dials: both sides see the same addresses. */
    static final Comparator<NodeAddress> PAIR_ORDER = Comparator.comparing(NodeAddress::host)
            .thenComparingInt(NodeAddress::tcpPort).thenComparingInt(NodeAddress::udpPort);

    private final NetServer server;
    private final NetClient client;
    private final DatagramSocket datagrams;
    private final NodeAddress localAddress;
    private final Rejections rejections;
    private final DatagramSeal seal;
    private final InboundConnection.Settings inboundSettings;
    private final PeerConnection.Settings outboundSettings;

    private final Map<NodeId, PeerConnection> peers = new HashMap<>();
    /**
     * Pair connections no {@link PeerConnection} writes on, at most one per peer, the latest: accepted from a peer
     * this node has not sent to yet (or while its connection to the peer was still in use), or kept open after
     * {@link #peerGone} for the peer's last frames. The connection to the peer takes it over instead of dialling.
     * A newer one replaces and closes the older ({@link #keepSpare}): a member that dials again has given that one
     * up, and an insider that keeps dialling must not pile up open connections.
     */
    private final Map<NodeAddress, NetSocket> unclaimed = new HashMap<>();
    private final Map<NodeId, String> gone = new HashMap<>();
    private final Set<InboundConnection> inbound = new LinkedHashSet<>();
    /** Accepted connections still in their handshake, oldest first. */
    private final Set<InboundConnection> pending = new LinkedHashSet<>();
    private final InboundPeers inboundPeers;
    /** Keeps {@link #inbound} and {@link #inboundPeers} up to date with the connections peers opened to us. */
    private final InboundConnection.Events inboundEvents = new InboundConnection.Events() {

        @Override
        public boolean authenticated(InboundConnection connection, NodeAddress peer) {
            pending.remove(connection);
            PeerConnection own = connectionAt(peer);
            boolean ownDialWins = PAIR_ORDER.compare(localAddress, peer) < 0 && own != null && own.holdsOwnDial();
            if (ownDialWins) {
                declined++;
            }
            return !closed && !ownDialWins;
        }

        @Override
        public void accepted(InboundConnection connection, NodeAddress peer) {
            inboundPeers.opened(peer);
            if (peer.equals(localAddress)) {
                return; // a connection to itself: the dialling end writes, this end reads
            }
            PeerConnection own = connectionAt(peer);
            if (own != null && !own.inUse()) {
                own.adopt(connection.socket());
            } else {
                // Taken over once the connection in use closes (a peer restarted, or its view of it broke).
                keepSpare(peer, connection.socket());
            }
        }

        @Override
        public void closed(InboundConnection connection, Optional<NodeAddress> peer) {
            inbound.remove(connection);
            pending.remove(connection);
            peer.ifPresentOrElse(address -> pairConnectionClosed(address, connection.socket(), false),
                    inboundPeers::closedUnidentified);
        }
    };
    /** Keeps {@link #inboundPeers} up to date with the connections this node dialled, on which peers' frames come too. */
    private final PeerConnection.Events dialledEvents = new PeerConnection.Events() {

        @Override
        public void dialledOpened(NodeAddress peer) {
            inboundPeers.dialledOpened(peer);
        }

        @Override
        public void dialledClosed(NodeAddress peer, NetSocket socket, boolean inUse) {
            pairConnectionClosed(peer, socket, inUse);
        }

        @Override
        public Optional<NetSocket> accepted(NodeAddress peer) {
            return Optional.ofNullable(unclaimed.remove(peer));
        }
    };

    private Handler<Frame> frameHandler = frame -> { };
    private Handler<Datagram> datagramHandler = datagram -> { };
    private Handler<NodeAddress> inboundClosedHandler = address -> { };
    private boolean closed;
    /** Connections declined because this node's own dial won the tie-break (tests check the race was run). */
    private long declined;

    private VertxTransport(Context context, TransportOptions options, TransportSecurity security, NetServer server,
            NetClient client, DatagramSocket datagrams) {
        this.context = context;
        this.options = options;
        this.log = new NodeLogger(LoggerFactory.getLogger(VertxTransport.class), options.nodeLabel());
        this.server = server;
        this.client = client;
        this.datagrams = datagrams;
        this.localAddress = new NodeAddress(options.advertisedHost(), server.actualPort(),
                datagrams.localAddress().port());
        this.rejections = new Rejections(log);
        this.seal = new DatagramSeal(security, localAddress);
        Handshake handshake = new Handshake(security, PeerIdentity.of(localAddress, options.nodeLabel()));
        FrameReader.Settings reading = new FrameReader.Settings(context, options.maxFrameBytes(), security,
                frame -> frameHandler.handle(frame), rejections);
        this.inboundSettings = new InboundConnection.Settings(reading, handshake, options.tls().isPresent(),
                inboundEvents);
        this.outboundSettings = new PeerConnection.Settings(client, options, handshake, reading, dialledEvents);
        this.inboundPeers = new InboundPeers(context.owner());
    }

    /**
     * Binds the TCP server and the UDP socket on {@code options.host()} and returns the running
     * transport, which peers reach at {@code options.advertisedHost()} and which talks only to
     * transports with the same {@code security} secret and job. Its context is the caller's when
     * called on a Vert.x context, a new one otherwise.
     *
     * <p>Create {@code vertx} with {@link dev.canopy.core.node.CanopyVertx}: Vert.x's own DNS client
     * binds a UDP socket on every interface.
     */
    public static Future<Transport> start(Vertx vertx, TransportOptions options, TransportSecurity security) {
        if (Vertx.currentContext() == null) {
            Handshake.prepareCrypto();
        }
        Context context = vertx.getOrCreateContext();
        Promise<Transport> started = Promise.promise();
        context.runOnContext(v -> {
            Future<Optional<TransportTls.Prepared>> tls = options.tls().isEmpty() ? Future.succeededFuture(Optional.empty())
                    : vertx.executeBlocking(() -> Optional.of(TransportTls.prepare(vertx, options.tls().get())));
            tls.compose(prepared -> bind(vertx, context, options, security, prepared)).onComplete(started);
        });
        return started.future();
    }

    private static Future<Transport> bind(Vertx vertx, Context context, TransportOptions options,
            TransportSecurity security, Optional<TransportTls.Prepared> prepared) {
        NetServer server = vertx.createNetServer(TransportTls.serverOptions(prepared, security));
        NetClient client = vertx.createNetClient(TransportTls.clientOptions(options, prepared, security));
        DatagramSocket datagrams = vertx.createDatagramSocket(
                new DatagramSocketOptions().setReceiveBufferSize(DATAGRAM_RECEIVE_BUFFER_BYTES));
        Promise<VertxTransport> ready = Promise.promise();
        // Connections may arrive before the transport object exists; the handler waits for it.
        server.connectHandler(socket -> ready.future().onSuccess(transport -> transport.accept(socket)));
        // With TLS, a connection whose TLS handshake fails never reaches the connect handler.
        server.exceptionHandler(failure -> ready.future().onSuccess(transport -> transport.tlsFailed(failure)));
        return server.listen(options.tcpPort(), options.host())
                .recover(e -> Future.failedFuture(new IllegalStateException("TCP port " + options.tcpPort() + ": "
                        + e.getMessage(), e)))
                .compose(s -> datagrams.listen(options.udpPort(), options.host())
                        .recover(e -> Future.failedFuture(new IllegalStateException("UDP port " + options.udpPort()
                                + ": " + e.getMessage(), e))))
                .map(d -> {
                    VertxTransport transport = new VertxTransport(context, options, security, server, client, datagrams);
                    datagrams.handler(transport::onDatagram);
                    ready.complete(transport);
                    transport.log.info("transport listening on {}{}{}", transport.localAddress,
                            options.host().equals(options.advertisedHost()) ? "" : " (bound to " + options.host() + ")",
                            options.tls().map(tls -> " with " + TlsSettings.PROTOCOL).orElse(""));
                    return (Transport) transport;
                })
                .onFailure(e -> {
                    server.close();
                    client.close();
                    datagrams.close();
                })
                .recover(e -> Future.failedFuture(new IllegalStateException("cannot bind the transport on "
                        + options.host() + ", " + e.getMessage() + " (choose free ports, or 0 for ephemeral ones)", e)));
    }

    @Override
    public NodeAddress localAddress() {
        return localAddress;
    }

    @Override
    public Context context() {
        return context;
    }

    @Override
    public Future<Void> send(Member to, Frame frame) {
        return onContext(() -> sendNow(to, frame));
    }

    @Override
    public Future<Void> drained(Member to) {
        return onContext(() -> {
            PeerConnection connection = peers.get(to.id());
            return connection == null ? Future.succeededFuture() : connection.drained();
        });
    }

    @Override
    public Future<Void> sendDatagram(Member to, Frame frame) {
        return onContext(() -> sendDatagramNow(to, frame));
    }

    @Override
    public void frameHandler(Handler<Frame> handler) {
        context.runOnContext(v -> frameHandler = handler);
    }

    @Override
    public void datagramHandler(Handler<Datagram> handler) {
        context.runOnContext(v -> datagramHandler = handler);
    }

    @Override
    public void inboundClosedHandler(Handler<NodeAddress> handler) {
        context.runOnContext(v -> inboundClosedHandler = handler);
    }

    @Override
    public void peerGone(NodeId peer, String reason) {
        context.runOnContext(v -> {
            gone.put(peer, reason);
            PeerConnection connection = peers.remove(peer);
            if (connection != null) {
                // The connection stays open for frames the peer sent before it went.
                connection.detach(new PeerUnavailableException(peer, reason))
                        .ifPresent(socket -> keepUnlessNewerSpare(connection.address(), socket));
            }
            log.info("peer {} gone: {}", peer, reason);
        });
    }

    @Override
    public void peerBack(NodeId peer) {
        context.runOnContext(v -> {
            if (gone.remove(peer) != null) {
                log.info("peer {} back", peer);
            }
        });
    }

    @Override
    public SecurityCounters securityCounters() {
        return rejections.counters();
    }

    @Override
    public Future<InboundEnd> awaitInboundEnd(Member peer, Duration atMost) {
        if (atMost.isNegative()) {
            return Future.failedFuture(new IllegalArgumentException("awaitInboundEnd: negative time " + atMost));
        }
        return onContext(() -> closed ? Future.succeededFuture(InboundEnd.TRANSPORT_CLOSED)
                : inboundPeers.awaitEnd(peer.address(), atMost));
    }

    @Override
    public Future<Void> close() {
        return onContext(() -> {
            if (closed) {
                return Future.succeededFuture();
            }
            closed = true;
            inboundPeers.closeAll();
            List<Future<Void>> closing = new ArrayList<>();
            Set<NetSocket> inUse = new HashSet<>();
            peers.values().forEach(connection -> connection.socketInUse().ifPresent(inUse::add));
            peers.forEach((id, connection) -> closing.add(connection.closeAfterQueuedWrites(
                    new PeerUnavailableException(id, "the local transport is closing"))));
            peers.clear();
            unclaimed.values().forEach(NetSocket::close);
            unclaimed.clear();
            // Pair connections in use close when their queued frames are written (above); the rest now.
            List.copyOf(inbound).forEach(connection -> {
                if (inUse.contains(connection.socket())) {
                    connection.stopReading();
                } else {
                    connection.close();
                }
            });
            inbound.clear();
            pending.clear();
            closing.add(server.close());
            closing.add(client.close());
            closing.add(datagrams.close());
            return Future.join(closing).<Void>mapEmpty()
                    .onComplete(r -> log.info("transport closed"));
        });
    }

    /** How many connections peers have open to this transport, authenticated or not (tests check none lingers). */
    Future<Integer> inboundConnections() {
        return onContext(() -> Future.succeededFuture(inbound.size()));
    }

    /** How many connections peers dialled were declined because this node's own dial to them won the tie-break. */
    Future<Long> declinedConnections() {
        return onContext(() -> Future.succeededFuture(declined));
    }

    @Override
    public String toString() {
        return "VertxTransport[" + options.nodeLabel() + " " + localAddress + "]";
    }

    private Future<Void> sendNow(Member to, Frame frame) {
        Optional<RuntimeException> refused = refusal(to, frame, options.maxFrameBytes(),
                "TransportOptions.maxFrameBytes); split the payload");
        return refused.isPresent() ? Future.failedFuture(refused.get())
                : connectionTo(to).enqueue(FrameCodec.encodeHeader(frame), frame.payload());
    }

    /** Why {@code frame} cannot go to {@code to} at all: this transport closed, the peer gone, or the frame too big. */
    private Optional<RuntimeException> refusal(Member to, Frame frame, int maxBytes, String limitAndAdvice) {
        if (closed) {
            return Optional.of(new PeerUnavailableException(to.id(), "the local transport is closed"));
        }
        String goneReason = gone.get(to.id());
        if (goneReason != null) {
            return Optional.of(new PeerUnavailableException(to.id(), goneReason));
        }
        if (frame.encodedLength() > maxBytes) {
            return Optional.of(new IllegalArgumentException(frame + " to " + to.id() + " is " + frame.encodedLength()
                    + " bytes, over the maximum of " + maxBytes + " (" + limitAndAdvice));
        }
        return Optional.empty();
    }

    private PeerConnection connectionTo(Member to) {
        PeerConnection connection = peers.get(to.id());
        if (connection != null && !connection.address().equals(to.address())) {
            // The peer re-joined at another address; the old connection is useless.
            connection.close(new PeerUnavailableException(to.id(), "peer moved from " + connection.address()
                    + " to " + to.address()));
            connection = null;
        }
        if (connection == null) {
            connection = new PeerConnection(to, context, outboundSettings);
            peers.put(to.id(), connection);
        }
        return connection;
    }

    /**
     * Keeps {@code socket} as the peer's spare connection, closing the one it replaces: at most one spare per peer.
     * The replaced one is closed after what was read from it was handed up; its close says nothing about the peer
     * (it is no longer in {@link #unclaimed} when {@link #pairConnectionClosed} hears of it).
     */
    private void keepSpare(NodeAddress peer, NetSocket socket) {
        NetSocket replaced = unclaimed.put(peer, socket);
        if (replaced != null && replaced != socket) {
            log.debug("closing the older spare connection from {}: it dialled again", peer);
            replaced.close();
        }
    }

    /**
     * Keeps the connection that was in use with a peer declared gone, for its last frames, as its spare, unless the
     * peer dialled a newer one meanwhile (it is the spare already): then this older one is closed.
     */
    private void keepUnlessNewerSpare(NodeAddress peer, NetSocket socket) {
        if (unclaimed.putIfAbsent(peer, socket) != null) {
            log.debug("closing the connection in use with {}: it dialled a newer one", peer);
            socket.close();
        }
    }

    /** This node's connection to the member at {@code address}, if it has one. */
    private PeerConnection connectionAt(NodeAddress address) {
        for (PeerConnection connection : peers.values()) {
            if (connection.address().equals(address)) {
                return connection;
            }
        }
        return null;
    }

    /**
     * A connection that the peer at {@code address} had authenticated on closed, after every frame read from it was
     * handed up. Failure detection hears of it when it was the pair's connection: one this node closed itself, or
     * one that lost the tie-break, says nothing about the peer.
     */
    private void pairConnectionClosed(NodeAddress address, NetSocket socket, boolean inUse) {
        inboundPeers.closed(address);
        PeerConnection own = connectionAt(address);
        boolean pairs = inUse || unclaimed.remove(address, socket) || (own != null && own.socketClosed(socket));
        if (pairs && !closed) {
            inboundClosedHandler.handle(address);
        }
    }

    private Future<Void> sendDatagramNow(Member to, Frame frame) {
        int maxBytes = Math.min(options.maxDatagramBytes(), FrameCodec.MAX_UDP_PAYLOAD - seal.overhead());
        Optional<RuntimeException> refused = refusal(to, frame, maxBytes,
                "TransportOptions.maxDatagramBytes, less the " + seal.overhead() + " bytes of the datagram's seal)"
                        + "; send it reliably or split it");
        return refused.isPresent() ? Future.failedFuture(refused.get())
                : datagrams.send(seal.seal(FrameCodec.encode(frame)), to.address().udpPort(), to.address().host());
    }

    private void accept(NetSocket socket) {
        if (closed) {
            socket.close();
            return;
        }
        Optional<String> tlsRefusal = options.tls().flatMap(tls -> TransportTls.refusal(tls, socket));
        if (tlsRefusal.isPresent()) {
            rejections.reject(Rejection.TLS_WRONG_PEER_NAME, remoteHost(socket), "connection " + socket.remoteAddress(),
                    tlsRefusal.get());
            socket.close();
            return;
        }
        if (pending.size() >= MAX_PENDING_HANDSHAKES) {
            InboundConnection oldest = pending.iterator().next();
            pending.remove(oldest);
            oldest.evict();
        }
        InboundConnection connection = new InboundConnection(socket, inboundSettings);
        inbound.add(connection);
        pending.add(connection);
        inboundPeers.accepted();
        connection.start();
    }

    /** A connection's TLS handshake failed (only with TLS; the server does not say from where). */
    private void tlsFailed(Throwable failure) {
        if (options.tls().isEmpty() || !TransportTls.isTlsFailure(failure)) {
            log.debug("TCP server: {}", failure.toString());
            return;
        }
        Rejection rejection = TransportTls.serverRejection(failure);
        rejections.reject(rejection, "unknown", "a TLS connection", TransportTls.serverDetail(rejection, failure));
    }

    private static String remoteHost(NetSocket socket) {
        return socket.remoteAddress() == null ? "?" : socket.remoteAddress().hostAddress();
    }

    private void onDatagram(DatagramPacket packet) {
        String sender = packet.sender().hostAddress();
        DatagramSeal.Opened opened = seal.open(packet.data());
        if (opened instanceof DatagramSeal.Refused refused) {
            rejections.reject(refused.rejection(), sender, "datagram from " + packet.sender(), refused.detail());
            return;
        }
        DecodeResult result = FrameCodec.decodeDatagram(((DatagramSeal.Accepted) opened).frame(),
                options.maxDatagramBytes());
        if (result instanceof DecodeResult.Decoded decoded) {
            try {
                datagramHandler.handle(new Datagram(decoded.frame(), packet.sender()));
            } catch (RuntimeException e) {
                log.error("datagram handler failed on {} from {}", decoded.frame(), packet.sender(), e);
            }
        } else if (result instanceof MalformedFrame problem) {
            rejections.reject(Rejection.DATAGRAM_MALFORMED, sender, "datagram from " + packet.sender(),
                    problem.toString());
        }
    }

    private <T> Future<T> onContext(Supplier<Future<T>> action) {
        return OwnerContext.call(context, action);
    }
}
