package dev.canopy.core.internal.emulation;

/**
 * How the emulated WAN treats traffic on one directed site-to-site link.
 *
 * @param rttMs         round-trip time; each direction is delayed by half of it
 * @param jitterMs      spread of the one-way delay: each message gets {@code rtt/2 + U(-jitter/2, +jitter/2)}
 *                      (never below zero), so the mean RTT stays {@code rttMs}
 * @param loss          probability that a datagram is dropped (reliable frames are never dropped)
 * @param bandwidthMbps link capacity in 10^6 bits per second; {@link Double#POSITIVE_INFINITY} for unlimited
 */
public record LinkProfile(double rttMs, double jitterMs, double loss, double bandwidthMbps) {

    public static final double UNLIMITED = Double.POSITIVE_INFINITY;

    public LinkProfile {
        if (!(rttMs >= 0) || Double.isInfinite(rttMs)) {
            throw new IllegalArgumentException("rtt_ms " + rttMs + " must be a finite number >= 0");
        }
        if (!(jitterMs >= 0) || Double.isInfinite(jitterMs)) {
            throw new IllegalArgumentException("jitter_ms " + jitterMs + " must be a finite number >= 0");
        }
        if (!(loss >= 0 && loss <= 1)) {
            throw new IllegalArgumentException("loss " + loss + " must be a probability between 0 and 1");
        }
        if (!(bandwidthMbps > 0)) {
            throw new IllegalArgumentException("bandwidth_mbps " + bandwidthMbps + " must be > 0 (omit it for unlimited)");
        }
    }

    /** A link with this round-trip time, no jitter, no loss and unlimited bandwidth. */
    public static LinkProfile rtt(double rttMs) {
        return new LinkProfile(rttMs, 0, 0, UNLIMITED);
    }

    public LinkProfile withJitter(double newJitterMs) {
        return new LinkProfile(rttMs, newJitterMs, loss, bandwidthMbps);
    }

    public LinkProfile withLoss(double newLoss) {
        return new LinkProfile(rttMs, jitterMs, newLoss, bandwidthMbps);
    }

    public LinkProfile withBandwidthMbps(double newBandwidthMbps) {
        return new LinkProfile(rttMs, jitterMs, loss, newBandwidthMbps);
    }
}
