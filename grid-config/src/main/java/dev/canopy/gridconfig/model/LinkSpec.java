package dev.canopy.gridconfig.model;

import java.util.OptionalDouble;

/**
 * The link for traffic from one site to another with defaults applied: what the WAN emulator and
 * the cost model's prior use.
 *
 * @param bandwidthMbps empty when unlimited
 */
public record LinkSpec(String from, String to, double rttMs, double jitterMs, double loss, OptionalDouble bandwidthMbps,
        LinkOrigin origin) {

    /** Half the round-trip time: the delay an emulator adds to each datagram from {@code from} to {@code to}. */
    public double oneWayDelayMs() {
        return rttMs / 2;
    }
}
