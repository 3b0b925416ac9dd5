package dev.canopy.gridconfig.model;

import dev.canopy.gridconfig.Level;
import java.util.OptionalDouble;

/**
 * The largest RTT in ms still counted as each level, for classifying measured links; anything
 * slower than {@code lightWanMs} is heavy WAN. Strictly increasing from host to light_wan.
 */
public record Thresholds(double hostMs, double clusterMs, double lanMs, double lightWanMs) {

    public static final Thresholds DEFAULTS = new Thresholds(0.05, 0.3, 2, 30);

    public Thresholds {
        if (!(hostMs >= 0 && hostMs < clusterMs && clusterMs < lanMs && lanMs < lightWanMs && Double.isFinite(lightWanMs))) {
            throw new IllegalArgumentException("thresholds must be finite, non-negative and increase from host to light_wan: "
                    + hostMs + ", " + clusterMs + ", " + lanMs + ", " + lightWanMs);
        }
        hostMs += 0.0; // -0.0 becomes 0.0, so equal thresholds print and compare equal
    }

    /** The threshold of {@code level}; heavy_wan has none (it is everything above light_wan). */
    public OptionalDouble of(Level level) {
        return switch (level) {
            case HOST -> OptionalDouble.of(hostMs);
            case CLUSTER -> OptionalDouble.of(clusterMs);
            case LAN -> OptionalDouble.of(lanMs);
            case LIGHT_WAN -> OptionalDouble.of(lightWanMs);
            case HEAVY_WAN -> OptionalDouble.empty();
        };
    }

    /** The finest level whose threshold {@code rttMs} does not exceed. */
    public Level classify(double rttMs) {
        if (rttMs <= hostMs) {
            return Level.HOST;
        }
        if (rttMs <= clusterMs) {
            return Level.CLUSTER;
        }
        if (rttMs <= lanMs) {
            return Level.LAN;
        }
        return rttMs <= lightWanMs ? Level.LIGHT_WAN : Level.HEAVY_WAN;
    }

    /** These thresholds with the one of {@code level} (not heavy_wan) replaced. */
    public Thresholds with(Level level, double ms) {
        return switch (level) {
            case HOST -> new Thresholds(ms, clusterMs, lanMs, lightWanMs);
            case CLUSTER -> new Thresholds(hostMs, ms, lanMs, lightWanMs);
            case LAN -> new Thresholds(hostMs, clusterMs, ms, lightWanMs);
            case LIGHT_WAN -> new Thresholds(hostMs, clusterMs, lanMs, ms);
            case HEAVY_WAN -> throw new IllegalArgumentException("heavy_wan has no threshold");
        };
    }
}
