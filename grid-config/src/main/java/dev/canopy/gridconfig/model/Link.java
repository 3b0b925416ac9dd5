package dev.canopy.gridconfig.model;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A link section: the network between two sites, used by the WAN emulator and as the prior before
 * probes have measured anything.
 *
 * @param rttMs round-trip time in ms
 * @param jitterMs spread of the delay in ms
 * @param loss datagram loss rate, 0 to 1
 * @param bandwidthMbps empty when unlimited
 * @param direction {@link LinkDirection#ONE_WAY} describes traffic from {@code a} to {@code b} only
 */
public record Link(String a, String b, double rttMs, double jitterMs, double loss, OptionalDouble bandwidthMbps,
        LinkDirection direction) {

    public Link {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(bandwidthMbps, "bandwidthMbps");
        Objects.requireNonNull(direction, "direction");
        if (a.equals(b)) {
            throw new IllegalArgumentException("a link joins two different sites, got " + a + " twice");
        }
        if (!(rttMs >= 0 && Double.isFinite(rttMs) && jitterMs >= 0 && Double.isFinite(jitterMs) && loss >= 0 && loss <= 1)) {
            throw new IllegalArgumentException("link " + a + "-" + b + ": rtt and jitter must be finite and >= 0, loss in [0, 1]: "
                    + rttMs + ", " + jitterMs + ", " + loss);
        }
        if (bandwidthMbps.isPresent() && !(bandwidthMbps.getAsDouble() > 0 && Double.isFinite(bandwidthMbps.getAsDouble()))) {
            throw new IllegalArgumentException("link " + a + "-" + b + ": bandwidth must be positive, got " + bandwidthMbps);
        }
        // -0.0 becomes 0.0, so equal links print and compare equal
        rttMs += 0.0;
        jitterMs += 0.0;
        loss += 0.0;
    }

    /** Whether this link carries traffic from {@code from} to {@code to}. */
    public boolean carries(String from, String to) {
        return a.equals(from) && b.equals(to) || direction == LinkDirection.BOTH_WAYS && a.equals(to) && b.equals(from);
    }

    LinkSpec toSpec(String from, String to) {
        return new LinkSpec(from, to, rttMs, jitterMs, loss, bandwidthMbps, LinkOrigin.CONFIGURED);
    }
}
