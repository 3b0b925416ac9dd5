package dev.canopy.core.comm;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.NodeLogger;
import io.vertx.core.Handler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Hands each incoming communicator frame to the channel it belongs to, by (context id, frame type).
 * A frame for a context this node has not created yet (a faster peer already uses the child of a
 * split this node is still completing) is parked until the channel registers, when it is a message or
 * an announcement: those hold their sender's credit ({@link FlowProtocol}), so what is parked is
 * bounded per peer and in total by {@link MessageLimits}. Other frames for an unknown context (answers
 * to announcements this node never made) are dropped and logged.
 *
 * <p>Confined to the runtime's context.
 */
final class FrameRouter {

    /** Whether a frame for an unknown context may wait for it. */
    enum Unrouted {
        PARK,
        DROP
    }

    private record Route(int context, FrameType type) {
    }

    private final long job;
    private final String nodeLabel;
    private final NodeLogger log;
    private final Map<Route, Handler<Frame>> channels = new HashMap<>();
    private final Map<Route, List<Frame>> parked = new HashMap<>();
    private long parkedBytes;

    FrameRouter(long job, String nodeLabel) {
        this.job = job;
        this.nodeLabel = nodeLabel;
        this.log = new NodeLogger(LoggerFactory.getLogger(FrameRouter.class), () -> nodeLabel);
    }

    void register(int context, FrameType type, Handler<Frame> channel) {
        Route route = new Route(context, type);
        if (channels.putIfAbsent(route, channel) != null) {
            throw new IllegalStateException(nodeLabel + ": context id " + context + " (" + type
                    + ") is already in use on this node; context ids must be unique per node");
        }
        List<Frame> waiting = parked.remove(route);
        if (waiting != null) {
            waiting.forEach(frame -> parkedBytes -= frame.payload().length());
            waiting.forEach(channel::handle);
        }
    }

    /** Stops routing {@code context}'s frames (its communicator is freed); later ones count as unknown. */
    void unregister(int context) {
        channels.keySet().removeIf(route -> route.context() == context);
    }

    /** Routes {@code frame}; {@code unrouted} says what to do when its context is not registered. */
    void handle(Frame frame, Unrouted unrouted) {
        if (frame.job() != job) {
            log.warn("dropped {}: it belongs to another job (this job's id is {})", frame,
                    Long.toHexString(job));
            return;
        }
        Route route = new Route(frame.context(), frame.type());
        Handler<Frame> channel = channels.get(route);
        if (channel != null) {
            channel.handle(frame);
        } else if (unrouted == Unrouted.PARK) {
            parked.computeIfAbsent(route, r -> new ArrayList<>()).add(frame);
            parkedBytes += frame.payload().length();
        } else {
            log.debug("dropped {}: no communicator of this node has context {}", frame, frame.context());
        }
    }

    /** Payload bytes of the frames waiting for contexts this node has not created. */
    long parkedBytes() {
        return parkedBytes;
    }
}
