package dev.canopy.topology.internal.hierarchy;

import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.Thresholds;

/**
 * Round-trip-time thresholds for deriving levels from measurements: two nodes may share a group of
 * level L only if their RTT is at most L's threshold. The heavy-WAN level has none (it holds every node).
 */
public record LevelThresholds(double hostRttMs, double clusterRttMs, double lanRttMs, double lightWanRttMs) {

    /** The contract's defaults: host 0.05, cluster 0.3, LAN 2, light-WAN 30 ms RTT. */
    public static final LevelThresholds DEFAULTS = new LevelThresholds(0.05, 0.3, 2, 30);

    public LevelThresholds {
        if (!(hostRttMs >= 0 && hostRttMs <= clusterRttMs && clusterRttMs <= lanRttMs && lanRttMs <= lightWanRttMs
                && Double.isFinite(lightWanRttMs))) {
            throw new IllegalArgumentException("level thresholds must be finite, non-negative and non-decreasing from host "
                    + "to light_wan, got host " + hostRttMs + ", cluster " + clusterRttMs + ", lan " + lanRttMs
                    + ", light_wan " + lightWanRttMs + " ms");
        }
    }

    /** The thresholds a level file sets ({@code thresholds_ms}). */
    public static LevelThresholds from(Thresholds levelFile) {
        return new LevelThresholds(levelFile.hostMs(), levelFile.clusterMs(), levelFile.lanMs(), levelFile.lightWanMs());
    }

    /** The RTT bound inside a group of {@code level}; positive infinity for heavy-WAN. */
    public double rttMs(Level level) {
        return switch (level) {
            case HEAVY_WAN -> Double.POSITIVE_INFINITY;
            case LIGHT_WAN -> lightWanRttMs;
            case LAN -> lanRttMs;
            case CLUSTER -> clusterRttMs;
            case HOST -> hostRttMs;
        };
    }
}
