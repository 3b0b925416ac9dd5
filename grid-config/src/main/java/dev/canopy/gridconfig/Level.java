package dev.canopy.gridconfig;

import java.util.Locale;
import java.util.Optional;

/**
 * The five levels of the MPICH-GX hierarchy, coarsest first.
 *
 * <p>The level of a link between two processes is the coarsest coordinate in which they differ:
 * different wan groups talk over the heavy WAN, different sites of one wan group over the light WAN,
 * different clusters of one site over the LAN, different hosts of one cluster over the cluster fabric,
 * and processes of one host over the host. A collective's tree at level L connects the units one
 * step finer inside one unit of L (wan groups, then sites, then clusters, then hosts, then processes).
 */
public enum Level {
    HEAVY_WAN,
    LIGHT_WAN,
    LAN,
    CLUSTER,
    HOST;

    /** The name used in level files, JSON and on the command line, e.g. {@code heavy_wan}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a level name as written in level files; case and underscores are ignored. */
    public static Optional<Level> fromConfigName(String text) {
        String canonical = text.replace("_", "").replace("-", "").toUpperCase(Locale.ROOT);
        for (Level level : values()) {
            if (level.name().replace("_", "").equals(canonical)) {
                return Optional.of(level);
            }
        }
        return Optional.empty();
    }

    public boolean isCoarserThan(Level other) {
        return ordinal() < other.ordinal();
    }
}
