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
import java.util.Objects;

/**
 * A transport that wraps another and forwards everything to it; a layer overrides only what it
 * changes (JGroups' {@code Protocol} style). Layers stack: {@code new DropNextLayer(new
 * WanEmulationLayer(vertxTransport, ...), ...)}; closing the outermost closes the whole stack.
 */
public abstract class TransportLayer implements Transport {

    protected final Transport below;

    protected TransportLayer(Transport below) {
        this.below = Objects.requireNonNull(below, "below");
    }

    @Override
    public NodeAddress localAddress() {
        return below.localAddress();
    }

    @Override
    public Context context() {
        return below.context();
    }

    @Override
    public Future<Void> send(Member to, Frame frame) {
        return below.send(to, frame);
    }

    @Override
    public Future<Void> drained(Member to) {
        return below.drained(to);
    }

    @Override
    public Future<Void> sendDatagram(Member to, Frame frame) {
        return below.sendDatagram(to, frame);
    }

    @Override
    public void frameHandler(Handler<Frame> handler) {
        below.frameHandler(handler);
    }

    @Override
    public void datagramHandler(Handler<Datagram> handler) {
        below.datagramHandler(handler);
    }

    @Override
    public void peerGone(NodeId peer, String reason) {
        below.peerGone(peer, reason);
    }

    @Override
    public void peerBack(NodeId peer) {
        below.peerBack(peer);
    }

    @Override
    public Future<InboundEnd> awaitInboundEnd(Member peer, Duration atMost) {
        return below.awaitInboundEnd(peer, atMost);
    }

    @Override
    public SecurityCounters securityCounters() {
        return below.securityCounters();
    }

    @Override
    public void inboundClosedHandler(Handler<NodeAddress> handler) {
        below.inboundClosedHandler(handler);
    }

    @Override
    public Future<Void> close() {
        return below.close();
    }
}
