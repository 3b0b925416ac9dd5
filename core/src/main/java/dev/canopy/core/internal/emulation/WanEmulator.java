package dev.canopy.core.internal.emulation;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.NodeAddress;
import io.vertx.core.Context;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The state of one emulated WAN: when each directed link and each site uplink is next free.
 * Share one emulator between all nodes of a JVM (the in-process demo and the benchmarks do), so a
 * site's uplink is really shared by its nodes. Nodes in different JVMs each have their own
 * emulator and so each emulates its own share of an uplink only.
 *
 * <p>Bandwidth model: a message of B bytes to another site first occupies its site's uplink for
 * {@code 8B / uplink}, queued behind earlier messages of any node of the site; it streams on to
 * the directed link, which it occupies for {@code 8B / bandwidth} queued behind earlier messages
 * on that link, finishing no earlier than its last bit left the uplink. It then propagates for
 * half the link's RTT (plus jitter). Thread-safe and lock-free.
 *
 * <p>Accuracy: the delay is counted end to end. The emulator estimates the latencies it adds on
 * top of it, the hand-off from its timer thread to an event loop and the real loopback hop, each
 * as the median of its recent samples ({@link LatencyEstimate}), and starts each message that much
 * earlier, so a ping measures the configured RTT even on a loaded machine. The loopback hop is
 * sampled from messages between emulated nodes of this JVM, separately for reliable frames and for
 * datagrams: a frame on a TCP connection can wait behind bulk data sent before it (a bandwidth
 * probe), which a datagram never does. Across JVMs the loopback hop is not sampled and adds to the
 * configured delay.
 */
public final class WanEmulator implements AutoCloseable {

    // Replaced by changeLink while nodes run; every message reads it once.
    private volatile WanEmulation config;
    private final NanoClock clock;
    private final DelayScheduler scheduler;
    private final ConcurrentMap<WanEmulation.DirectedLink, LinkTimeline> links = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, LinkTimeline> uplinks = new ConcurrentHashMap<>();
    private final LatencyEstimate handoff = new LatencyEstimate();
    private final Map<Hop, LatencyEstimate> hops = new EnumMap<>(Map.of(
            Hop.FRAME, new LatencyEstimate(), Hop.DATAGRAM, new LatencyEstimate()));
    private final Set<NodeAddress> receivers = ConcurrentHashMap.newKeySet();
    private final ConcurrentMap<InFlightKey, Long> sentAt = new ConcurrentHashMap<>();

    /** What a message does after the emulated delay: a local step, or a real hop to another node as a frame or datagram. */
    enum Hop { LOCAL, FRAME, DATAGRAM }

    /** Identifies a message between its real send and its arrival at an emulated node of this JVM. */
    private record InFlightKey(Hop hop, NodeAddress to, FrameType type, long job, int context, int reserved, int source,
            int destination, int tag, long sequence) {

        static InFlightKey of(Hop hop, NodeAddress to, Frame frame) {
            return new InFlightKey(hop, to, frame.type(), frame.job(), frame.context(), frame.reserved(), frame.source(),
                    frame.destination(), frame.tag(), frame.sequence());
        }
    }

    private static final int MAX_IN_FLIGHT_SAMPLES = 10_000;

    public WanEmulator(WanEmulation config, NanoClock clock, DelayScheduler scheduler) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /** An emulator on the system clock with its own scheduler thread; {@link #close()} stops it. */
    public static WanEmulator start(WanEmulation config) {
        return new WanEmulator(config, NanoClock.SYSTEM, new ThreadDelayScheduler("canopy-wan-emulator"));
    }

    public WanEmulation config() {
        return config;
    }

    /**
     * Changes the link between two sites, both directions, for every message sent from now on (e.g. a demo that
     * degrades a WAN link to show a re-plan). Messages already in flight keep their delay; reliable frames to one
     * peer still arrive in order (the layer delivers each no earlier than the one before).
     */
    public synchronized void changeLink(String siteA, String siteB, LinkProfile profile) {
        config = config.withLink(siteA, siteB, profile);
    }

    NanoClock clock() {
        return clock;
    }

    /**
     * Runs {@code task} on {@code context} so that its effect happens at {@code deadlineNanos} of
     * the emulator's clock: it wakes early by the estimated hand-off latency to the event loop and,
     * for a real hop to another node, by that hop's estimated loopback latency too.
     */
    void runAt(Context context, long deadlineNanos, Hop hop, Runnable task) {
        long target = hop == Hop.LOCAL ? deadlineNanos : deadlineNanos - hops.get(hop).nanos();
        long fireAt = target - handoff.nanos();
        scheduler.schedule(fireAt, () -> context.runOnContext(v -> {
            handoff.record(clock.nanoTime() - fireAt);
            task.run();
        }));
    }

    /** A node of this JVM with an emulation layer listens at {@code address}: it reports arrivals. */
    void addReceiver(NodeAddress address) {
        receivers.add(address);
    }

    void removeReceiver(NodeAddress address) {
        receivers.remove(address);
    }

    /** A message leaves for a real {@code hop} now; if its receiver reports the arrival, the hop is sampled. */
    void sending(Hop hop, NodeAddress to, Frame frame) {
        if (!receivers.contains(to)) {
            return;
        }
        if (sentAt.size() >= MAX_IN_FLIGHT_SAMPLES) {
            sentAt.clear(); // frames lost with a connection, and lost datagrams, never arrive; forget them
        }
        sentAt.putIfAbsent(InFlightKey.of(hop, to, frame), clock.nanoTime());
    }

    /** A message that made a real {@code hop} arrived at the node listening at {@code local}. */
    void arrived(Hop hop, NodeAddress local, Frame frame) {
        Long sent = sentAt.remove(InFlightKey.of(hop, local, frame));
        if (sent != null) {
            hops.get(hop).record(clock.nanoTime() - sent);
        }
    }

    /**
     * Puts a message of {@code bytes} from {@code fromSite} to a different {@code toSite} on the
     * wire now.
     *
     * @return when its last bit has left the link (before propagation), on the emulator's clock
     */
    long transmit(String fromSite, String toSite, int bytes) {
        long now = clock.nanoTime();
        LinkProfile profile = config.link(fromSite, toSite);
        double uplinkMbps = config.uplinkMbps(fromSite);
        LinkTimeline.Occupancy uplink = Double.isInfinite(uplinkMbps)
                ? new LinkTimeline.Occupancy(now, now)
                : uplinks.computeIfAbsent(fromSite, site -> new LinkTimeline())
                        .reserve(now, transmissionNanos(bytes, uplinkMbps), now);
        if (Double.isInfinite(profile.bandwidthMbps())) {
            return uplink.end();
        }
        return links.computeIfAbsent(new WanEmulation.DirectedLink(fromSite, toSite), link -> new LinkTimeline())
                .reserve(uplink.start(), transmissionNanos(bytes, profile.bandwidthMbps()), uplink.end())
                .end();
    }

    /** Nanoseconds to put {@code bytes} on a link of {@code mbps}. */
    static long transmissionNanos(int bytes, double mbps) {
        return Math.round(bytes * 8.0 * 1_000.0 / mbps);
    }

    @Override
    public void close() {
        scheduler.close();
    }
}
