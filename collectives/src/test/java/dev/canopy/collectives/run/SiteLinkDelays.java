package dev.canopy.collectives.run;

import dev.canopy.collectives.internal.engine.CollectiveFrame;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.transport.OwnerContext;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportLayer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;

/**
 * An emulated WAN whose links can change while a job runs: every frame and datagram between two sites
 * waits the link's one-way delay before it is sent. Delays may only grow (a frame never overtakes an
 * earlier one on its connection). It also records the header of every collective frame the nodes send,
 * so a test can see which epoch and which tree a collective used.
 */
final class SiteLinkDelays {

    /** A collective frame as sent: from which site to which, with its header. */
    record SentCollective(String fromSite, String toSite, CollectiveFrame.Header header) {
    }

    private final Map<String, Long> oneWayMs = new ConcurrentHashMap<>();
    private final List<SentCollective> sent = new CopyOnWriteArrayList<>();

    /** Sets the one-way delay between sites {@code a} and {@code b}, both directions. */
    void set(String a, String b, long millis) {
        Long before = oneWayMs.put(key(a, b), millis);
        if (before != null && before > millis) {
            throw new IllegalArgumentException("link " + key(a, b) + " may only slow down (" + before + " -> " + millis
                    + " ms), or frames could overtake each other");
        }
    }

    /** The layer of a node at site {@code site}. */
    TransportStack layerAt(String site) {
        return below -> new Layer(below, site);
    }

    List<SentCollective> sentCollectives() {
        return List.copyOf(sent);
    }

    void forgetSent() {
        sent.clear();
    }

    private long delayMs(String from, String to) {
        return from.equals(to) ? 0 : oneWayMs.getOrDefault(key(from, to), 0L);
    }

    private static String key(String a, String b) {
        return a.compareTo(b) < 0 ? a + "~" + b : b + "~" + a;
    }

    private final class Layer extends TransportLayer {

        private final String site;

        Layer(Transport below, String site) {
            super(below);
            this.site = site;
        }

        @Override
        public Future<Void> send(Member to, Frame frame) {
            if (frame.type() == FrameType.COLLECTIVE) {
                sent.add(new SentCollective(site, to.coordinates().site(), CollectiveFrame.header(frame.payload())));
            }
            return delayed(to, frame, below::send);
        }

        @Override
        public Future<Void> sendDatagram(Member to, Frame frame) {
            return delayed(to, frame, below::sendDatagram);
        }

        private Future<Void> delayed(Member to, Frame frame, BiFunction<Member, Frame, Future<Void>> sender) {
            long delay = delayMs(site, to.coordinates().site());
            if (delay == 0) {
                return sender.apply(to, frame);
            }
            return OwnerContext.call(context(), () -> {
                Promise<Void> done = Promise.promise();
                context().owner().setTimer(delay, id -> sender.apply(to, frame).onComplete(done));
                return done.future();
            });
        }
    }
}
