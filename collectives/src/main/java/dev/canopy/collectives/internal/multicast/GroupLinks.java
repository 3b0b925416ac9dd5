package dev.canopy.collectives.internal.multicast;

import dev.canopy.core.comm.Communicator;
import dev.canopy.multicast.internal.link.ReliableLink;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reliable paths of every policy-managed group of one communicator at one member, over one
 * {@link CommunicatorLink} on {@link CommunicatorLink#GROUPS_TAG}: each group's substrate gets a {@link ReliableLink}
 * among its own ranks ({@link #open}), and every message carries the group's instance number in front, so one
 * receive loop serves the static group and every temporary one. A message for an instance this member has not
 * opened yet (a root's retransmission can overtake a target's join) waits, up to {@link #MAX_WAITING} messages; one
 * for an instance already closed is dropped (its operation is over). Communicator context only.
 */
final class GroupLinks {

    /** Messages held for instances not opened yet, over all of them: beyond that a peer is misbehaving. */
    static final int MAX_WAITING = 4096;
    private static final int REMEMBERED_CLOSED = 1024;
    private static final Logger LOG = LoggerFactory.getLogger(GroupLinks.class);

    private final Communicator communicator;
    private final CommunicatorLink link;
    private final Map<Integer, Channel> open = new HashMap<>();
    private final Map<Integer, ArrayDeque<Pending>> waiting = new HashMap<>();
    private final Set<Integer> closed = new LinkedHashSet<>();
    private int waitingCount;
    private Throwable failure;

    private record Pending(int source, Buffer payload) {
    }

    GroupLinks(Communicator communicator) {
        this.communicator = communicator;
        int[] everyone = new int[communicator.size()];
        Arrays.setAll(everyone, rank -> rank);
        this.link = new CommunicatorLink(communicator.collectiveChannel(), everyone, this::failed,
                CommunicatorLink.GROUPS_TAG);
        link.handler(this::received);
    }

    /**
     * The reliable path of group {@code instance} among {@code ranks} (communicator ranks, ascending, holding this
     * one); {@code failures} is told once when a member of the communicator fails, until the group is
     * {@link #close(int) closed} (one that failed already: {@link #failure()}).
     */
    ReliableLink open(int instance, int[] ranks, Consumer<Throwable> failures) {
        Channel channel = new Channel(instance, ranks.clone(), failures);
        open.put(instance, channel);
        return channel;
    }

    /** The failure the communicator reported, if one did. */
    Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** Stops delivering to {@code instance}; later messages for it are dropped. */
    void close(int instance) {
        open.remove(instance);
        ArrayDeque<Pending> dropped = waiting.remove(instance);
        waitingCount -= dropped == null ? 0 : dropped.size();
        closed.add(instance);
        if (closed.size() > REMEMBERED_CLOSED) {
            closed.remove(closed.iterator().next());
        }
    }

    /** Stops the receive loop (with the communicator's groups). */
    void close() {
        link.close();
    }

    private void received(int source, Buffer message) {
        if (message.length() < 4) {
            LOG.warn("multicast groups of rank {}: dropped a {}-byte link message from rank {} (no group number)",
                    communicator.rank(), message.length(), source);
            return;
        }
        int instance = message.getInt(0);
        Buffer payload = message.slice(4, message.length());
        Channel channel = open.get(instance);
        if (channel != null) {
            channel.deliver(source, payload);
        } else if (!closed.contains(instance)) {
            if (waitingCount >= MAX_WAITING) {
                LOG.warn("multicast groups of rank {}: dropped a link message from rank {} for group {}: {} messages"
                        + " already wait for groups not opened here", communicator.rank(), source, instance, waitingCount);
                return;
            }
            waiting.computeIfAbsent(instance, ignored -> new ArrayDeque<>()).add(new Pending(source, payload));
            waitingCount++;
        }
    }

    private void failed(Throwable cause) {
        failure = cause;
        List.copyOf(open.values()).forEach(channel -> channel.failures.accept(cause));
    }

    /** One group's link: group-local ranks are indexes into its ranks. */
    private final class Channel implements ReliableLink {

        private final int instance;
        private final int[] ranks;
        private final int rank;
        private final Consumer<Throwable> failures;
        private LinkHandler handler;

        Channel(int instance, int[] ranks, Consumer<Throwable> failures) {
            this.instance = instance;
            this.ranks = ranks;
            this.failures = failures;
            this.rank = Arrays.binarySearch(ranks, communicator.rank());
            if (rank < 0) {
                throw new IllegalArgumentException("rank " + communicator.rank() + " is not in multicast group "
                        + instance + " " + Arrays.toString(ranks));
            }
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
                return Future.failedFuture(new IllegalArgumentException("group " + instance + " link destination "
                        + destination + " is not a rank of its " + ranks.length + " members"));
            }
            return link.send(ranks[destination], Buffer.buffer(4 + payload.length()).appendInt(instance)
                    .appendBuffer(payload));
        }

        @Override
        public void handler(LinkHandler linkHandler) {
            this.handler = linkHandler;
            ArrayDeque<Pending> early = waiting.remove(instance);
            if (early != null) {
                waitingCount -= early.size();
                early.forEach(message -> deliver(message.source(), message.payload()));
            }
        }

        void deliver(int source, Buffer payload) {
            int local = Arrays.binarySearch(ranks, source);
            if (local < 0) {
                LOG.warn("multicast group {} of rank {}: dropped a link message from rank {}, not a member {}",
                        instance, communicator.rank(), source, Arrays.toString(ranks));
            } else if (handler != null) {
                handler.received(local, payload);
            }
        }
    }
}
