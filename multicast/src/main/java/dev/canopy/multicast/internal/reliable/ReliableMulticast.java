package dev.canopy.multicast.internal.reliable;

import dev.canopy.core.comm.RankFailedException;
import dev.canopy.core.node.NodeId;
import dev.canopy.multicast.internal.fabric.Fabric;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.fabric.ReceiveHandler;
import dev.canopy.multicast.internal.link.ReliableLink;
import dev.canopy.multicast.internal.loop.OwnerLoop;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reliable, ordered broadcast of any size over an unreliable multicast {@link Fabric}, for one member
 * of one communicator (the design note's designs 2 to 5): per-root sequence numbers, a sliding window
 * of pre-allocated buffers at the root, co-roots with their own leaves, skewed ACKs every M packets
 * with an explicit ACK after a delay, per-packet timeouts with retransmission over the
 * {@link ReliableLink} to exactly the leaves whose ACK is missing, credits tied to posted receive
 * buffers, and fragmentation of large messages through the window.
 *
 * <p>Every member may be a root: {@link #broadcast} sends on this member's own stream, {@link #receive}
 * takes the next message of another root's stream. A failed rank, reported through
 * {@link #rankFailed} (or found by a failing link send), fails every operation of every stream on this
 * member with a {@link RankFailedException} naming it, frees the windows, and is reported to the other
 * members, so no survivor waits for the dead rank.
 *
 * <p>Threading: {@link #broadcast}, {@link #receive} and the getters must be called on the owner
 * loop, where futures also complete; {@link #start}, {@link #rankFailed} and {@link #close} may be
 * called from any thread.
 */
public final class ReliableMulticast implements MemberFailureListener {

    private static final Logger LOG = LoggerFactory.getLogger(ReliableMulticast.class);

    private final Substrate substrate;
    private final RootStream rootStream;
    private final ReceiveStream[] streams;
    private final List<ByteBuffer> receiveBuffers = new ArrayList<>();
    private Throwable failure;
    private boolean closing; // a close is not worth a warning

    private ReliableMulticast(CommunicatorId communicator, MulticastGroup group, Fabric fabric, ReliableLink link,
                              OwnerLoop loop, MulticastOptions options) {
        this.substrate = new Substrate(communicator, group, fabric, link, loop, options, this::failLocally);
        this.rootStream = new RootStream(substrate);
        this.streams = new ReceiveStream[substrate.size];
        for (int root = 0; root < substrate.size; root++) {
            if (root != substrate.rank) {
                streams[root] = new ReceiveStream(substrate, root);
            }
        }
        int buffers = substrate.options.creditsPerRoot() * (substrate.size - 1);
        for (int i = 0; i < buffers; i++) {
            receiveBuffers.add(ByteBuffer.allocate(substrate.fabric.mtu()));
        }
    }

    /**
     * A member of {@code communicator} ({@code link.rank()} of {@code link.size()}) on {@code group} of
     * {@code fabric}. Nothing is received before {@link #start}.
     */
    public static ReliableMulticast create(CommunicatorId communicator, MulticastGroup group, Fabric fabric,
                                           ReliableLink link, OwnerLoop loop, MulticastOptions options) {
        Objects.requireNonNull(communicator, "communicator");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(options, "options");
        ReliableMulticast member = new ReliableMulticast(communicator, group, fabric, link, loop, options);
        fabric.receiveHandler(new ReceiveHandler() {
            @Override
            public void received(MulticastGroup group, ByteBuffer datagram) {
                member.onDatagram(group, datagram);
            }

            @Override
            public void batchDone() {
                member.substrate.flushFeedback();
            }
        });
        link.handler(member::onLinkMessage);
        return member;
    }

    /** Joins the group at once and posts the receive buffers on the owner loop (so a busy member posts them late). */
    public void start() {
        substrate.fabric.join(substrate.group);
        substrate.loop.execute(() -> receiveBuffers.forEach(substrate.fabric::postReceive));
    }

    /**
     * Broadcasts {@code message} on this member's stream. The message is copied into the window; the future
     * completes once the last byte is in (at once while the window has room), and the caller may then reuse
     * the buffer. Delivery continues in the background.
     */
    public Future<Void> broadcast(Buffer message) {
        return rootStream.broadcast(Objects.requireNonNull(message, "message"));
    }

    /** The next message broadcast by {@code root}, in the order it was broadcast. */
    public Future<Buffer> receive(int root) {
        if (root < 0 || root >= substrate.size || root == substrate.rank) {
            return Future.failedFuture(new IllegalArgumentException("receive from root " + root + " at rank "
                    + substrate.rank + " of " + substrate.size + ": a root is another rank of the communicator"));
        }
        return streams[root].receive();
    }

    @Override
    public void rankFailed(RankFailedException rankFailure) {
        substrate.loop.execute(() -> failLocally(rankFailure));
    }

    /** Leaves the group and fails what is still pending. */
    public void close() {
        substrate.loop.execute(() -> {
            closing = true;
            apply(new IllegalStateException("multicast member rank " + substrate.rank + " ("
                    + substrate.communicator + ") is closed"));
            substrate.fabric.leave(substrate.group);
        });
    }

    public int rank() {
        return substrate.rank;
    }

    /** The sub-group size in use (root or co-root plus its leaves). */
    public int subGroupSize() {
        return substrate.subGroupSize;
    }

    /** Packet buffers held by the root window and the co-root windows; 0 once everything is acknowledged. */
    public int windowSlotsInUse() {
        int inUse = rootStream.windowInUse();
        for (ReceiveStream stream : streams) {
            inUse += stream == null ? 0 : stream.windowInUse();
        }
        return inUse;
    }

    /** Messages delivered in order and not yet taken by {@link #receive}, over all roots. */
    public int queuedMessages() {
        int queued = 0;
        for (ReceiveStream stream : streams) {
            queued += stream == null ? 0 : stream.queuedMessages();
        }
        return queued;
    }

    /** Receive buffers this member owns: creditsPerRoot for each other rank. */
    public int receiveBufferCount() {
        return receiveBuffers.size();
    }

    /** Receive buffers posted to the fabric right now. */
    public int postedReceiveBuffers() {
        return substrate.fabric.postedReceives();
    }

    public MulticastStats stats() {
        return substrate.counters.snapshot();
    }

    /** Why this member stopped, or null. */
    public Throwable failure() {
        return failure;
    }

    private void onDatagram(MulticastGroup group, ByteBuffer datagram) {
        try {
            if (group.equals(substrate.group) && isValid(datagram, "the fabric")
                    && PacketCodec.carriesData(datagram) && PacketCodec.root(datagram) != substrate.rank) {
                substrate.counters.packetsFromFabric += PacketCodec.type(datagram) == PacketCodec.BATCH
                        ? PacketCodec.batchCount(datagram) : 1;
                acceptData(datagram);
            }
        } finally {
            substrate.fabric.postReceive(datagram);
        }
    }

    private void onLinkMessage(int source, Buffer payload) {
        onLinkPacket(source, payload);
        substrate.flushFeedback();
    }

    private void onLinkPacket(int source, Buffer payload) {
        ByteBuffer packet = ByteBuffer.wrap(payload.getBytes());
        if (source < 0 || source >= substrate.size || !isValid(packet, "rank " + source)) {
            return;
        }
        if (!PacketCodec.carriesData(packet) && PacketCodec.sender(packet) != source) {
            dropped("rank " + source, "it claims to come from rank " + PacketCodec.sender(packet));
            return;
        }
        int root = PacketCodec.root(packet);
        switch (PacketCodec.type(packet)) {
            case PacketCodec.DATA, PacketCodec.BATCH -> {
                if (root != substrate.rank) {
                    acceptData(packet);
                }
            }
            case PacketCodec.FEEDBACK -> {
                long acked = PacketCodec.ackedUpTo(packet);
                long credit = PacketCodec.creditLimit(packet);
                substrate.counters.feedbackReceived++;
                boolean known = root == substrate.rank ? rootStream.feedback(source, acked, credit)
                        : streams[root].leafFeedback(source, acked, credit);
                unknownReporter(known, source, "FEEDBACK", root);
            }
            case PacketCodec.NAK -> {
                long acked = PacketCodec.ackedUpTo(packet);
                long credit = PacketCodec.creditLimit(packet);
                long missing = PacketCodec.missingUpTo(packet);
                substrate.counters.feedbackReceived++;
                boolean known = root == substrate.rank ? rootStream.nak(source, acked, credit, missing)
                        : streams[root].leafNak(source, acked, credit, missing);
                unknownReporter(known, source, "NAK", root);
            }
            default -> abortReported(source, packet);
        }
    }

    /** A validated DATA packet, or each packet of a BATCH in order, to its root's stream. */
    private void acceptData(ByteBuffer datagram) {
        ReceiveStream stream = streams[PacketCodec.root(datagram)];
        if (PacketCodec.type(datagram) == PacketCodec.BATCH) {
            PacketCodec.forEachInBatch(datagram, stream::accept);
        } else {
            stream.accept(datagram);
        }
    }

    private void unknownReporter(boolean known, int source, String type, int root) {
        if (!known && failure == null) {
            dropped("rank " + source, type + " for root " + root + " from a rank that does not report to rank "
                    + substrate.rank);
        }
    }

    private void abortReported(int source, ByteBuffer packet) {
        int failedRank = PacketCodec.failedRank(packet);
        NodeId node;
        try {
            node = NodeId.of(PacketCodec.failedNode(packet));
        } catch (IllegalArgumentException badNode) {
            dropped("rank " + source, "ABORT with a bad node id: " + badNode.getMessage());
            return;
        }
        apply(new RankFailedException(failedRank, node, PacketCodec.abortReason(packet) + " (reported by rank " + source
                + ")"));
    }

    /** A failure found here: stop, and tell every other member that may be waiting on this one or on the dead rank. */
    private void failLocally(Throwable cause) {
        if (failure != null) {
            return;
        }
        apply(cause);
        RankFailedException named = cause instanceof RankFailedException rankFailure ? rankFailure
                : new RankFailedException(substrate.rank, NodeId.of("rank-" + substrate.rank),
                        String.valueOf(cause.getMessage()));
        byte[] abort = PacketCodec.abort(substrate.communicator, substrate.rank, named.rank(), named.node().value(),
                named.reason());
        for (int other = 0; other < substrate.size; other++) {
            if (other != substrate.rank && other != named.rank()) {
                substrate.sendReliably(other, abort);
            }
        }
    }

    private void apply(Throwable cause) {
        if (failure != null) {
            return;
        }
        failure = cause;
        if (closing) {
            LOG.debug("[multicast rank {} {}] stops: {}", substrate.rank, substrate.communicator, cause.getMessage());
        } else {
            LOG.warn("[multicast rank {} {}] stops: {}", substrate.rank, substrate.communicator, cause.getMessage());
        }
        rootStream.fail(cause);
        for (ReceiveStream stream : streams) {
            if (stream != null) {
                stream.fail(cause);
            }
        }
    }

    private boolean isValid(ByteBuffer packet, String from) {
        String problem = PacketCodec.validate(packet, substrate.communicator, substrate.size,
                substrate.fragmentCapacity, substrate.options.maxMessageBytes());
        if (problem != null) {
            dropped(from, problem);
            return false;
        }
        return true;
    }

    private void dropped(String from, String problem) {
        long dropped = ++substrate.counters.malformedDropped;
        if (Long.bitCount(dropped) == 1) { // the 1st, 2nd, 4th, 8th, ...: foreign traffic must not flood the log
            LOG.warn("[multicast rank {} {}] dropped a packet from {}: {} ({} dropped so far)", substrate.rank,
                    substrate.communicator, from, problem, dropped);
        }
    }
}
