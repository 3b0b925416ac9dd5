package dev.canopy.core.node;

import java.time.Duration;
import java.util.Objects;

/**
 * How nodes watch each other with heartbeats. Every {@code period} (give or take {@code jitter}, so
 * that nodes do not all send at once) a node sends a small LIVENESS heartbeat to every live member, as a
 * datagram (which times it: it never waits behind data queued on a connection) and as a frame on its
 * connection (which keeps the connection open, so a crash resets it); a member from which no heartbeat
 * has been heard for {@code timeout} since its last one is declared failed. The detector arms only after a member's first heartbeat, so a slow
 * starter is never suspected for being late.
 *
 * <p>Heartbeats catch what a connection reset cannot: a host that vanished without closing its sockets
 * (power loss, a partition). On loopback and LANs the defaults suit; on WANs the timeout should be many
 * round trips and longer than the worst pause a node may have (a full GC), e.g. period 1 s, timeout 10 s.
 *
 * @param period  time between two heartbeats to one member
 * @param timeout silence after which a member is declared failed; at least twice the period
 * @param jitter  fraction of the period by which each wait is randomly shortened or lengthened, 0 to 0.5
 */
public record HeartbeatSettings(Duration period, Duration timeout, double jitter) {

    public static final Duration DEFAULT_PERIOD = Duration.ofMillis(500);
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    public static final double DEFAULT_JITTER = 0.2;

    public HeartbeatSettings {
        Objects.requireNonNull(period, "period");
        Objects.requireNonNull(timeout, "timeout");
        if (period.toMillis() < 1) {
            throw new IllegalArgumentException("heartbeat period " + period + " must be at least 1 ms");
        }
        if (timeout.compareTo(period.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("heartbeat timeout " + timeout.toMillis() + " ms must be at least twice"
                    + " the period of " + period.toMillis() + " ms, or one late heartbeat fails a member");
        }
        if (!(jitter >= 0 && jitter <= 0.5)) {
            throw new IllegalArgumentException("heartbeat jitter " + jitter + " must be between 0 and 0.5 of the period");
        }
    }

    /**
     * Period 500 ms, timeout 5 s, jitter 20 %. The timeout is long on purpose: a false suspicion fails a healthy
     * member, while a crash on a reachable host resets its connections and is seen at once anyway.
     */
    public static HeartbeatSettings defaults() {
        return new HeartbeatSettings(DEFAULT_PERIOD, DEFAULT_TIMEOUT, DEFAULT_JITTER);
    }
}
