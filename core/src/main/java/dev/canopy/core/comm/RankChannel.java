package dev.canopy.core.comm;

import dev.canopy.core.frame.Frame;
import dev.canopy.core.frame.FrameType;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.PeerUnavailableException;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.Objects;

/**
 * One channel of a communicator: the user channel (DATA frames), the collective channel (COLLECTIVE
 * frames) or the control channel used to agree on new communicators (CONTROL frames). The three share
 * ranks and context id and never see each other's messages.
 */
final class RankChannel implements PointToPoint {

    private final GroupCommunicator owner;
    private final FrameType type;
    private final Mailbox mailbox = new Mailbox();
    private long sequence;

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
            RankFailedException selfFailure = owner.receiveFailureOf(owner.rank());
            if (selfFailure != null) {
                return Future.failedFuture(selfFailure);
            }
            return mailbox.receive(source, tag, owner::receiveFailureOf);
        });
    }

    /** A frame of this channel arrived; its source is a WORLD rank. */
    void accept(Frame frame) {
        int source = owner.rankOfWorld(frame.source());
        if (source < 0) {
            owner.logDropped(frame, "its source is not a member of this communicator");
            return;
        }
        mailbox.deliver(new Message(source, frame.tag(), frame.payload()));
    }

    void sourceFailed(int rank, RankFailedException failure) {
        mailbox.sourceFailed(rank, failure);
    }

    void close(RuntimeException failure) {
        mailbox.failAll(failure);
    }

    private Future<Void> sendNow(int destination, int tag, Buffer payload) {
        RankFailedException failure = owner.sendFailureOf(owner.rank());
        if (failure == null) {
            failure = owner.sendFailureOf(destination);
        }
        if (failure != null) {
            return Future.failedFuture(failure);
        }
        if (destination == owner.rank()) {
            // A copy: the sender may reuse its buffer once the send completes, which is now.
            mailbox.deliver(new Message(destination, tag, payload.copy()));
            return Future.succeededFuture();
        }
        Member to = owner.member(destination);
        Frame frame = new Frame(type, owner.runtime().jobKey(), owner.contextId(), 0, owner.runtime().selfWorldRank(),
                owner.worldRank(destination), tag, sequence++, payload);
        return owner.runtime().transport().send(to, frame).recover(e -> Future.failedFuture(
                e instanceof PeerUnavailableException unavailable
                        ? new RankFailedException(destination, to.id(), unavailable.reason())
                        : e));
    }
}
