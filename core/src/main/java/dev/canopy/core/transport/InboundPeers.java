package dev.canopy.core.transport;

import dev.canopy.core.node.NodeAddress;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which peers have connections open to this node, by the address they authenticated as, and who
 * waits for a peer's connections to end. A connection's close is seen after every frame read from
 * it has been handed up, so "ended" means every frame the peer wrote to us has arrived.
 *
 * <p>Owned by the transport's context.
 */
final class InboundPeers {

    private record Waiter(Promise<InboundEnd> promise, long timer) {
    }

    private final Vertx vertx;
    private final Map<NodeAddress, Integer> open = new HashMap<>();
    /** Peers that have had a connection to us; bounded by the peers this node ever heard from. */
    private final Set<NodeAddress> greeted = new HashSet<>();
    private final Map<NodeAddress, List<Waiter>> waiting = new HashMap<>();
    /**
     * Connections accepted that have not authenticated yet. Any of them may be a departed peer's
     * reconnection carrying its last frames, so no peer counts as ended while one is pending.
     */
    private int unidentified;

    InboundPeers(Vertx vertx) {
        this.vertx = vertx;
    }

    /** A connection was accepted; it will authenticate ({@link #opened}) or close first ({@link #closedUnidentified}). */
    void accepted() {
        unidentified++;
    }

    /** A connection from {@code peer} authenticated. */
    void opened(NodeAddress peer) {
        unidentified--;
        greeted.add(peer);
        open.merge(peer, 1, Integer::sum);
        settleEndedPeers();
    }

    /** A connection closed before it said who it was from. */
    void closedUnidentified() {
        unidentified--;
        settleEndedPeers();
    }

    /** A connection this node dialled was accepted by {@code peer}: the peer's frames come on it too. */
    void dialledOpened(NodeAddress peer) {
        greeted.add(peer);
        open.merge(peer, 1, Integer::sum);
    }

    /** A connection with {@code peer} that had authenticated (either side dialled it) closed. */
    void closed(NodeAddress peer) {
        open.computeIfPresent(peer, (address, count) -> count > 1 ? count - 1 : null);
        settleEndedPeers();
    }

    /** See {@link Transport#awaitInboundEnd}. */
    Future<InboundEnd> awaitEnd(NodeAddress peer, Duration atMost) {
        if (ended(peer)) {
            return Future.succeededFuture(InboundEnd.CONNECTIONS_CLOSED);
        }
        if (atMost.isZero()) {
            return Future.succeededFuture(InboundEnd.TIMED_OUT);
        }
        Promise<InboundEnd> promise = Promise.promise();
        long timer = vertx.setTimer(Math.max(1, atMost.toMillis()), id -> timedOut(peer, promise));
        waiting.computeIfAbsent(peer, p -> new ArrayList<>()).add(new Waiter(promise, timer));
        return promise.future();
    }

    /** The transport closes: nothing more will arrive from anyone. */
    void closeAll() {
        List.copyOf(waiting.keySet()).forEach(peer -> finish(peer, InboundEnd.TRANSPORT_CLOSED));
    }

    private boolean ended(NodeAddress peer) {
        return greeted.contains(peer) && !open.containsKey(peer) && unidentified == 0;
    }

    private void settleEndedPeers() {
        List.copyOf(waiting.keySet()).stream().filter(this::ended)
                .forEach(peer -> finish(peer, InboundEnd.CONNECTIONS_CLOSED));
    }

    private void finish(NodeAddress peer, InboundEnd end) {
        List<Waiter> waiters = waiting.remove(peer);
        if (waiters != null) {
            waiters.forEach(waiter -> {
                vertx.cancelTimer(waiter.timer());
                waiter.promise().tryComplete(end);
            });
        }
    }

    private void timedOut(NodeAddress peer, Promise<InboundEnd> promise) {
        List<Waiter> waiters = waiting.get(peer);
        if (waiters != null) {
            waiters.removeIf(waiter -> waiter.promise() == promise);
            if (waiters.isEmpty()) {
                waiting.remove(peer);
            }
        }
        promise.tryComplete(InboundEnd.TIMED_OUT);
    }
}
