package dev.canopy.core.comm;

import dev.canopy.core.frame.Frame;
import dev.canopy.core.frame.FrameType;
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
 * split this node is still completing) is parked until the channel registers, up to
 * {@link #MAX_PARKED_FRAMES}; beyond that frames are dropped with an error in the log.
 *
 * <p>Confined to the runtime's context.
 */
final class FrameRouter implements Handler<Frame> {

    static final int MAX_PARKED_FRAMES = 100_000;

    private record Route(int context, FrameType type) {
    }

    private final long job;
    private final String nodeLabel;
    private final NodeLogger log;
    private final Map<Route, Handler<Frame>> channels = new HashMap<>();
    private final Map<Route, List<Frame>> parked = new HashMap<>();
    private int parkedFrames;

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
            parkedFrames -= waiting.size();
            waiting.forEach(channel::handle);
        }
    }

    @Override
    public void handle(Frame frame) {
        if (frame.job() != job) {
            log.warn("dropped {}: it belongs to another job (this job's id is {})", frame,
                    Long.toHexString(job));
            return;
        }
        Route route = new Route(frame.context(), frame.type());
        Handler<Frame> channel = channels.get(route);
        if (channel != null) {
            channel.handle(frame);
        } else if (parkedFrames < MAX_PARKED_FRAMES) {
            parked.computeIfAbsent(route, r -> new ArrayList<>()).add(frame);
            parkedFrames++;
        } else {
            log.error("dropped {}: {} frames already wait for contexts this node has not created", frame,
                    parkedFrames);
        }
    }
}
