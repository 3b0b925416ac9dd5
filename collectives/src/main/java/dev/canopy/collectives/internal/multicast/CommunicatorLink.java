package dev.canopy.collectives.internal.multicast;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.PointToPoint;
import dev.canopy.core.comm.RankFailedException;
import dev.canopy.multicast.internal.link.ReliableLink;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The multicast substrate's reliable path over a communicator's collective channel: the ranks of one
 * leaf group (group-local rank i is communicator rank {@code ranks[i]}), one reserved tag, and a
 * {@code receive(ANY_SOURCE, tag)} loop on the communicator's context that feeds the handler. The
 * tag lies above the collectives' sequence tags ({@code 0 .. 2^30-1}), so the two never match.
 *
 * <p>Core fails the {@code ANY_SOURCE} receives that are posted when a member fails, and only those; a
 * busy loop is often between two receives at that moment. So the link also posts one receive on a tag
 * nobody sends on ({@link #WATCH_TAG}), which can only ever complete by failing: the first failure of
 * either goes to {@code failures} (a {@link RankFailedException} naming a communicator rank), and the
 * loop stops.
 */
final class CommunicatorLink implements ReliableLink {

    /** Multicast traffic of the collectives: above every sequence tag, below ANY_TAG's sign bit. */
    static final int TAG = 0x4000_0001;
    /** The links of the policy-managed groups ({@link GroupLinks}), one tag for all of them. */
    static final int GROUPS_TAG = 0x4000_0005;
    /** Never sent on: a receive here completes only when a member fails. */
    static final int WATCH_TAG = 0x4000_0003;

    private static final Logger LOG = LoggerFactory.getLogger(CommunicatorLink.class);

    private final PointToPoint channel;
    private final int tag;
    private final int[] ranks;
    private final int[] localOf;
    private final int rank;
    private final Consumer<Throwable> failures;
    private LinkHandler handler;
    private volatile boolean closed;
    private boolean failed; // communicator context only

    /**
     * @param ranks    the group's communicator ranks, in group-local order; must hold the channel's own rank
     * @param failures told once when the receive loop fails (a member failed, or the communicator closed)
     */
    CommunicatorLink(PointToPoint channel, int[] ranks, Consumer<Throwable> failures) {
        this(channel, ranks, failures, TAG);
    }

    /** The same on another reserved {@code tag} ({@link #GROUPS_TAG}). */
    CommunicatorLink(PointToPoint channel, int[] ranks, Consumer<Throwable> failures, int tag) {
        this.channel = channel;
        this.tag = tag;
        this.ranks = ranks.clone();
        this.localOf = new int[channel.size()];
        java.util.Arrays.fill(localOf, -1);
        for (int local = 0; local < ranks.length; local++) {
            localOf[ranks[local]] = local;
        }
        this.rank = localOf[channel.rank()];
        if (rank < 0) {
            throw new IllegalArgumentException("rank " + channel.rank() + " is not in the multicast group "
                    + java.util.Arrays.toString(ranks));
        }
        this.failures = failures;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return ranks.length;
    }

    @Override
    public Future<Void> send(int destination, Buffer payload) {
        if (destination < 0 || destination >= ranks.length) {
            return Future.failedFuture(new IllegalArgumentException("multicast link destination " + destination
                    + " is not a rank of the " + ranks.length + "-member group"));
        }
        return channel.send(ranks[destination], tag, payload);
    }

    /** Sets the handler and starts the receive loop; call on the communicator's context. */
    @Override
    public void handler(LinkHandler linkHandler) {
        this.handler = linkHandler;
        channel.receive(Communicator.ANY_SOURCE, WATCH_TAG).onComplete(watched -> fail(watched.failed()
                ? watched.cause() : new IllegalStateException("rank " + watched.result().source()
                        + " sent on the multicast link's watch tag, which nobody sends on")));
        receiveNext();
    }

    /** Stops taking messages (the pending receive stays posted until the communicator closes). */
    void close() {
        closed = true;
    }

    private void fail(Throwable cause) {
        if (!closed && !failed) {
            failed = true;
            failures.accept(cause);
        }
    }

    private void receiveNext() {
        if (closed || failed) {
            return;
        }
        channel.receive(Communicator.ANY_SOURCE, tag).onComplete(received -> {
            if (closed) {
                return;
            }
            if (received.failed()) {
                fail(received.cause());
                return;
            }
            int source = received.result().source();
            int local = source >= 0 && source < localOf.length ? localOf[source] : -1;
            if (local < 0) {
                LOG.warn("multicast link of rank {}: dropped a message from rank {}, which is not in the group {}",
                        channel.rank(), source, java.util.Arrays.toString(ranks));
            } else {
                handler.received(local, received.result().payload());
            }
            receiveNext();
        });
    }
}
