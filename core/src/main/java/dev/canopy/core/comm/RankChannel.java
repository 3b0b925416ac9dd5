package dev.canopy.core.comm;

import dev.canopy.core.comm.Mailbox.Incoming;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.PeerUnavailableException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One channel of a communicator: the user channel (DATA frames), the collective channel (COLLECTIVE
 * frames) or the control channel used to agree on new communicators (CONTROL frames). The three share
 * ranks and context id and never see each other's messages. Sends go eager or rendezvous as the
 * receiver's credit allows ({@link FlowProtocol}); a send's future completes once its frame (eager)
 * or its body (rendezvous) has been written.
 */
final class RankChannel implements PointToPoint {

    private record BodyKey(int source, long rendezvous) {
    }

    /** A receive that took an announcement and waits for the body. */
    private record AwaitedBody(int tag, int size, Promise<Message> receive) {
    }

    /** A body asked for before any receive took its announcement, which waits in the queue. */
    private record Fetch(int tag, int size) {
    }

    /** A rendezvous send whose announcement went out: its body waits for the receiver's clear-to-send. */
    private record AnnouncedSend(int destination, Buffer payload, Promise<Void> sent) {
    }

    private final GroupCommunicator owner;
    private final FrameType type;
    private final Mailbox mailbox = new Mailbox(this::take);
    private final Map<Long, AnnouncedSend> announced = new HashMap<>();
    private final Map<BodyKey, AwaitedBody> awaitedBodies = new HashMap<>();
    private final Map<BodyKey, Fetch> fetching = new HashMap<>();
    /**
     * Per source rank, the queued announcements whose bodies found no room to be fetched ahead, in arrival order:
     * fetched as room frees ({@link #fetchAheadWithRoom}). Without this a stream of rendezvous messages beyond the
     * fetch budget would cost one round trip per message, each asked for only when its receive is posted.
     */
    private final Map<Integer, LinkedHashMap<BodyKey, Fetch>> awaitingRoom = new HashMap<>();
    private long sequence;
    /** Set when the communicator is freed: every later operation fails with it. */
    private RuntimeException freed;

    RankChannel(GroupCommunicator owner, FrameType type) {
        this.owner = owner;
        this.type = type;
    }

    @Override
    public int rank() {
        return owner.rank();
    }

    @Override
    public int size() {
        return owner.size();
    }

    @Override
    public Future<Void> send(int destination, int tag, Buffer payload) {
        Objects.requireNonNull(payload, "payload");
        if (destination < 0 || destination >= size()) {
            return Future.failedFuture(new IllegalArgumentException("send to rank " + destination + " of a "
                    + size() + "-rank communicator (context " + owner.contextId() + ")"));
        }
        if (tag < 0) {
            return Future.failedFuture(new IllegalArgumentException("send with tag " + tag + ": tags are 0 or more"));
        }
        return owner.runtime().onContext(() -> sendNow(destination, tag, payload));
    }

    @Override
    public Future<Message> receive(int source, int tag) {
        if (source < Communicator.ANY_SOURCE || source >= size()) {
            return Future.failedFuture(new IllegalArgumentException("receive from rank " + source + " of a "
                    + size() + "-rank communicator (context " + owner.contextId() + "); use ANY_SOURCE (-1) for any"));
        }
        if (tag < Communicator.ANY_TAG) {
            return Future.failedFuture(new IllegalArgumentException("receive with tag " + tag
                    + ": tags are 0 or more, or ANY_TAG (-1)"));
        }
        return owner.runtime().onContext(() -> {
            if (freed != null) {
                return Future.failedFuture(freed);
            }
            RankFailedException selfFailure = owner.receiveFailureOf(owner.rank());
            if (selfFailure != null) {
                return Future.failedFuture(selfFailure);
            }
            return mailbox.receive(source, tag, owner::receiveFailureOf);
        });
    }

    /** A frame of this channel arrived; its source is a WORLD rank. Its credit cost is already held. */
    void accept(Frame frame) {
        int source = owner.rankOfWorld(frame.source());
        if (source < 0 || freed != null) {
            owner.runtime().release(frame.source(), FlowProtocol.cost(frame));
            owner.logDropped(frame, source < 0 ? "its source is not a member of this communicator"
                    : "the communicator has been freed");
            return;
        }
        switch (frame.tag()) {
            case FlowProtocol.ANNOUNCE_TAG -> announcementArrived(source, frame);
            case FlowProtocol.CLEAR_TO_SEND_TAG -> clearToSend(source, frame);
            case FlowProtocol.BODY_TAG -> bodyArrived(source, frame);
            default -> {
                if (frame.tag() >= 0) {
                    mailbox.deliver(Incoming.eager(source, frame.tag(), frame.payload(), FlowProtocol.cost(frame)));
                } else {
                    owner.logDropped(frame, "tag " + frame.tag() + " is neither a user tag nor a protocol tag");
                }
            }
        }
    }

    /** Receives from {@code rank} fail (see {@link Mailbox#sourceFailed}), and so do receives waiting for its bodies. */
    void sourceFailed(int rank, RankFailedException failure) {
        mailbox.sourceFailed(rank, failure);
        awaitingRoom.remove(rank);
        fetching.entrySet().removeIf(entry -> {
            if (entry.getKey().source() == rank) {
                owner.runtime().releaseFetch(owner.worldRank(rank), entry.getValue().size());
                return true;
            }
            return false;
        });
        awaitedBodies.entrySet().removeIf(entry -> {
            if (entry.getKey().source() == rank) {
                entry.getValue().receive().tryFail(failure);
                return true;
            }
            return false;
        });
    }

    /** Membership reported {@code rank} gone: rendezvous sends to it will never be asked for their bodies. */
    void destinationDeparted(int rank, RankFailedException failure) {
        announced.values().removeIf(send -> {
            if (send.destination() == rank) {
                send.sent().tryFail(failure);
                return true;
            }
            return false;
        });
    }

    /** Fails every waiting operation (the node is closing). */
    void close(RuntimeException failure) {
        mailbox.failAll(failure);
        awaitingRoom.clear();
        fetching.forEach((key, fetch) -> owner.runtime().releaseFetch(owner.worldRank(key.source()), fetch.size()));
        fetching.clear();
        awaitedBodies.values().forEach(body -> body.receive().tryFail(failure));
        awaitedBodies.clear();
        announced.values().forEach(send -> send.sent().tryFail(failure));
        announced.clear();
    }

    /**
     * The communicator is freed: waiting operations and later ones fail with {@code failure}; what the
     * unexpected queue held is discarded and its credit given back to the senders.
     */
    void free(RuntimeException failure) {
        if (freed != null) {
            return;
        }
        freed = failure;
        close(failure);
        owner.runtime().withdrawSends(send -> send instanceof ChannelSend mine && mine.channel() == this)
                .forEach(send -> ((ChannelSend) send).fail(failure));
        for (Incoming incoming : mailbox.drain()) {
            owner.runtime().release(owner.worldRank(incoming.source()), incoming.cost());
            if (incoming.fetched()) {
                owner.runtime().releaseFetch(owner.worldRank(incoming.source()), incoming.size());
            }
        }
    }

    int queuedMessages() {
        return mailbox.queuedMessages();
    }

    int queuedPayloads() {
        return mailbox.queuedPayloads();
    }

    /** Bodies asked for ahead of their receives that have not arrived yet. */
    int fetchesInFlight() {
        return fetching.size();
    }

    private Future<Void> sendNow(int destination, int tag, Buffer payload) {
        if (freed != null) {
            return Future.failedFuture(freed);
        }
        RankFailedException failure = owner.sendFailureOf(owner.rank());
        if (failure == null) {
            failure = owner.sendFailureOf(destination);
        }
        if (failure != null) {
            return Future.failedFuture(failure);
        }
        if (destination == owner.rank()) {
            // A copy: the sender may reuse its buffer once the send completes, which is now. Costs no credit.
            mailbox.deliver(Incoming.eager(destination, tag, payload.copy(), 0));
            return Future.succeededFuture();
        }
        ChannelSend send = new ChannelSend(destination, tag, payload, Promise.promise());
        owner.runtime().outbound(owner.worldRank(destination)).submit(send);
        return send.sent.future();
    }

    /** A matched arrival: complete the receive with an eager message, or ask the sender for the body. */
    private void take(Incoming incoming, Promise<Message> receive) {
        owner.runtime().release(owner.worldRank(incoming.source()), incoming.cost());
        if (!incoming.isAnnouncement()) {
            if (incoming.fetched()) {
                owner.runtime().releaseFetch(owner.worldRank(incoming.source()), incoming.size());
            }
            receive.complete(new Message(incoming.source(), incoming.tag(), incoming.payload()));
            return;
        }
        RankFailedException failure = owner.receiveFailureOf(incoming.source());
        if (failure != null) {
            receive.fail(failure);
            return;
        }
        BodyKey key = new BodyKey(incoming.source(), incoming.rendezvous());
        LinkedHashMap<BodyKey, Fetch> waiting = awaitingRoom.get(key.source());
        if (waiting != null && waiting.remove(key) != null && waiting.isEmpty()) {
            awaitingRoom.remove(key.source());
        }
        awaitedBodies.put(key, new AwaitedBody(incoming.tag(), incoming.size(), receive));
        if (!fetching.containsKey(key)) {
            askForBody(key).onFailure(e -> {
                if (awaitedBodies.remove(key) != null) {
                    receive.tryFail(e);
                }
            });
        }
    }

    private Future<Void> askForBody(BodyKey key) {
        return write(key.source(), FlowProtocol.CLEAR_TO_SEND_TAG, key.rendezvous(), Buffer.buffer());
    }

    private void announcementArrived(int source, Frame frame) {
        Buffer payload = frame.payload();
        int tag = payload.length() == 8 ? payload.getInt(0) : -1;
        int size = payload.length() == 8 ? payload.getInt(4) : -1;
        if (tag < 0 || size < 0) {
            owner.runtime().release(frame.source(), FlowProtocol.cost(frame));
            owner.logDropped(frame, "a rendezvous announcement holds a tag of 0 or more and a size of 0 or more"
                    + " in 8 bytes");
            return;
        }
        boolean queued = mailbox.deliver(Incoming.announced(source, tag, size, frame.sequence()));
        if (queued) {
            BodyKey key = new BodyKey(source, frame.sequence());
            Fetch fetch = new Fetch(tag, size);
            // Behind the source's announcements that already wait for room, so its bodies come in arrival order.
            LinkedHashMap<BodyKey, Fetch> waiting = awaitingRoom.get(source);
            if (waiting != null || !fetchAhead(key, fetch)) {
                awaitingRoom.computeIfAbsent(source, s -> new LinkedHashMap<>()).put(key, fetch);
            }
        }
    }

    /**
     * Fetches the bodies of queued announcements that had to wait for room, each source's in arrival order, as far as
     * the fetch budget now allows: a source's turn ends at its first body without room, so a pass costs one failed
     * reservation per source, not one per waiting announcement. The runtime calls it after bodies fetched ahead were
     * received or dropped.
     */
    void fetchAheadWithRoom() {
        awaitingRoom.values().removeIf(waiting -> {
            for (Iterator<Map.Entry<BodyKey, Fetch>> it = waiting.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<BodyKey, Fetch> next = it.next();
                if (!fetchAhead(next.getKey(), next.getValue())) {
                    return false;
                }
                it.remove();
            }
            return true;
        });
    }

    /** Asks for the body of a queued announcement now if the fetch budget has room, so a receive posted later does not wait a round trip. */
    private boolean fetchAhead(BodyKey key, Fetch fetch) {
        int worldSource = owner.worldRank(key.source());
        if (!owner.runtime().reserveFetch(worldSource, fetch.size())) {
            return false;
        }
        fetching.put(key, fetch);
        askForBody(key).onFailure(e -> {
            if (fetching.remove(key) != null) {
                owner.runtime().releaseFetch(worldSource, fetch.size());
            }
        });
        return true;
    }

    private void clearToSend(int source, Frame frame) {
        AnnouncedSend send = announced.get(frame.sequence());
        if (send == null || send.destination() != source) {
            owner.logDropped(frame, "no rendezvous send " + frame.sequence() + " to this rank waits here"
                    + " (it failed or its communicator was freed)");
            return;
        }
        announced.remove(frame.sequence());
        write(source, FlowProtocol.BODY_TAG, frame.sequence(), send.payload()).onComplete(send.sent());
    }

    private void bodyArrived(int source, Frame frame) {
        BodyKey key = new BodyKey(source, frame.sequence());
        AwaitedBody body = awaitedBodies.remove(key);
        Fetch fetch = fetching.remove(key);
        if (body == null && fetch != null) {
            if (frame.payload().length() != fetch.size()
                    || !mailbox.fill(source, fetch.tag(), frame.sequence(), frame.payload())) {
                owner.runtime().releaseFetch(frame.source(), fetch.size());
                owner.logDropped(frame, "the body of rendezvous " + frame.sequence() + " does not fit its announcement"
                        + " of " + fetch.size() + " bytes, or the announcement is no longer queued");
            }
            return;
        }
        if (fetch != null) {
            owner.runtime().releaseFetch(frame.source(), fetch.size());
        }
        if (body == null) {
            owner.logDropped(frame, "no receive here waits for the body of rendezvous " + frame.sequence());
        } else if (frame.payload().length() != body.size()) {
            body.receive().fail(new IllegalStateException("rank " + source + " sent " + frame.payload().length()
                    + " bytes for rendezvous " + frame.sequence() + " after announcing " + body.size()));
        } else {
            body.receive().complete(new Message(source, body.tag(), frame.payload()));
        }
    }

    private Future<Void> write(int destination, int tag, long frameSequence, Buffer payload) {
        Member to = owner.member(destination);
        Frame frame = new Frame(type, owner.runtime().jobKey(), owner.contextId(), 0, owner.runtime().selfWorldRank(),
                owner.worldRank(destination), tag, frameSequence, payload);
        return owner.runtime().transport().send(to, frame).recover(e -> Future.failedFuture(
                e instanceof PeerUnavailableException unavailable
                        ? new RankFailedException(destination, to.id(), unavailable.reason())
                        : e));
    }

    /** A send of this channel, started by its destination's {@link OutboundWindow} once credit allows. */
    private final class ChannelSend implements OutboundWindow.PendingSend {

        private final int destination;
        private final int tag;
        private final Buffer payload;
        private final Promise<Void> sent;

        ChannelSend(int destination, int tag, Buffer payload, Promise<Void> sent) {
            this.destination = destination;
            this.tag = tag;
            this.payload = payload;
            this.sent = sent;
        }

        RankChannel channel() {
            return RankChannel.this;
        }

        @Override
        public int size() {
            return payload.length();
        }

        @Override
        public void start(OutboundWindow.Mode mode) {
            long id = sequence++;
            if (mode == OutboundWindow.Mode.EAGER) {
                write(destination, tag, id, payload).onComplete(sent);
                return;
            }
            announced.put(id, new AnnouncedSend(destination, payload, sent));
            write(destination, FlowProtocol.ANNOUNCE_TAG, id, FlowProtocol.announcement(tag, payload.length()))
                    .onFailure(e -> {
                        if (announced.remove(id) != null) {
                            sent.tryFail(e);
                        }
                    });
        }

        @Override
        public void fail(OutboundWindow.Failure failure, String reason) {
            Member to = owner.member(destination);
            fail(switch (failure) {
                case DEPARTED -> new RankFailedException(destination, to.id(), reason);
                case REJECTED -> new MessageRejectedException(destination, to.id(), reason);
                case CLOSED -> new RankFailedException(owner.rank(), owner.runtime().self().id(), reason);
            });
        }

        void fail(RuntimeException failure) {
            sent.tryFail(failure);
        }
    }
}
