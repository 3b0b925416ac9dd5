package dev.canopy.core.internal.failure;

import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.NodeId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Fixed-timeout heartbeat failure detection, pure logic: the caller reports heartbeats and asks which
 * members are overdue; time comes from an injected clock, so tests move it instead of sleeping. A
 * member is watched from its first heartbeat on and reported overdue once, when {@code timeout} has
 * passed since its last one.
 *
 * <p>Not thread-safe: owned by one context.
 */
public final class HeartbeatDetector {

    private final HeartbeatSettings settings;
    private final NanoClock clock;
    private final RandomGenerator random;
    private final Map<NodeId, Long> lastHeardNanos = new HashMap<>();
    private long lastCheckNanos;

    public HeartbeatDetector(HeartbeatSettings settings, NanoClock clock, RandomGenerator random) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
        this.lastCheckNanos = clock.nanoTime();
    }

    /** Something arrived from {@code member}; watching it starts with its first heartbeat. */
    public void heard(NodeId member) {
        lastHeardNanos.put(member, clock.nanoTime());
    }

    /** Stops watching {@code member} (it failed or left). */
    public void forget(NodeId member) {
        lastHeardNanos.remove(member);
    }

    /**
     * The watched members silent for the timeout or longer; they are forgotten, so each is reported once. Call it
     * every {@link #checkEveryMillis()}: when the previous call is more than half the timeout ago, this node itself
     * was stalled (a full GC, a starved event loop) and heartbeats may wait unread in its socket, so nobody is
     * reported and every watched member's silence starts again from now.
     */
    public List<NodeId> overdue() {
        long now = clock.nanoTime();
        long timeout = settings.timeout().toNanos();
        boolean stalled = now - lastCheckNanos > timeout / 2;
        lastCheckNanos = now;
        if (stalled) {
            lastHeardNanos.replaceAll((member, heard) -> now);
            return List.of();
        }
        List<NodeId> overdue = new ArrayList<>();
        lastHeardNanos.forEach((member, heard) -> {
            if (now - heard >= timeout) {
                overdue.add(member);
            }
        });
        overdue.forEach(lastHeardNanos::remove);
        return overdue;
    }

    /** How long {@code member} has been silent, in ms; -1 when it is not watched. */
    public long silenceMillis(NodeId member) {
        Long heard = lastHeardNanos.get(member);
        return heard == null ? -1 : (clock.nanoTime() - heard) / 1_000_000;
    }

    /** The wait before the next round of heartbeats: the period, shortened or lengthened by up to the jitter. */
    public long nextDelayMillis() {
        long period = settings.period().toMillis();
        double factor = 1 + settings.jitter() * (2 * random.nextDouble() - 1);
        return Math.max(1, Math.round(period * factor));
    }

    /** How often to check for overdue members: a fraction of the timeout, so detection is late by at most that. */
    public long checkEveryMillis() {
        return Math.max(1, Math.min(settings.period().toMillis(), settings.timeout().toMillis() / 10));
    }
}
