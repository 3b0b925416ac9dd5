package dev.canopy.gridconfig.model;

import dev.canopy.gridconfig.Level;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** The algorithm of every one of the five levels. */
public record LevelAlgorithms(Map<Level, Algorithm> byLevel) {

    /** MPICH-GX's choices, with Canopy's multicast at the LAN and cluster levels. */
    public static final LevelAlgorithms DEFAULTS = new LevelAlgorithms(Map.of(
            Level.HEAVY_WAN, Algorithm.HLOT,
            Level.LIGHT_WAN, Algorithm.FLAT,
            Level.LAN, Algorithm.MULTICAST,
            Level.CLUSTER, Algorithm.FABRIC_MULTICAST,
            Level.HOST, Algorithm.LOCAL));

    public LevelAlgorithms {
        EnumMap<Level, Algorithm> copy = new EnumMap<>(Level.class);
        copy.putAll(byLevel);
        for (Level level : Level.values()) {
            Algorithm algorithm = copy.get(level);
            if (algorithm == null) {
                throw new IllegalArgumentException("no algorithm for level " + level.configName() + " in " + byLevel);
            }
            if (!algorithm.allowedAt(level)) {
                throw new IllegalArgumentException(algorithm.configName() + " cannot run at level " + level.configName());
            }
        }
        byLevel = Collections.unmodifiableMap(copy);
    }

    public Algorithm at(Level level) {
        return byLevel.get(level);
    }

    /** These choices with {@code level} changed to {@code algorithm}. */
    public LevelAlgorithms with(Level level, Algorithm algorithm) {
        EnumMap<Level, Algorithm> copy = new EnumMap<>(byLevel);
        copy.put(level, algorithm);
        return new LevelAlgorithms(copy);
    }
}
