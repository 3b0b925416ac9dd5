package dev.canopy.gridconfig.model;

import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.Keyword;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The collective algorithms a level file can choose per level; each is valid only at some levels. */
public enum Algorithm {
    /** Heterogeneous latency-optimal tree (MPICH-GX). */
    HLOT(Level.HEAVY_WAN, Level.LIGHT_WAN),
    /** The root sends to every member directly. */
    FLAT(Level.HEAVY_WAN, Level.LIGHT_WAN, Level.LAN),
    BINOMIAL(Level.HEAVY_WAN, Level.LIGHT_WAN, Level.LAN, Level.CLUSTER, Level.HOST),
    /** Minimum spanning tree of the latency graph. */
    MST(Level.HEAVY_WAN, Level.LIGHT_WAN),
    /** Shortest-path tree from the root. */
    SPT(Level.HEAVY_WAN, Level.LIGHT_WAN),
    /** One child per site coordinator, the message pipelined down the chain: for large messages over thin uplinks. */
    CHAIN(Level.HEAVY_WAN, Level.LIGHT_WAN),
    /** At most two children per site coordinator: for large messages over thin uplinks. */
    BINARY(Level.HEAVY_WAN, Level.LIGHT_WAN),
    /** Chosen by the cost model from measured latencies. */
    AUTO(Level.HEAVY_WAN, Level.LIGHT_WAN, Level.LAN, Level.CLUSTER),
    /** IP multicast. */
    MULTICAST(Level.LAN, Level.CLUSTER),
    /** The cluster fabric's hardware multicast (e.g. InfiniBand), IP multicast without one. */
    FABRIC_MULTICAST(Level.CLUSTER),
    /** Shared memory between the processes of one host. */
    LOCAL(Level.HOST);

    private final Set<Level> levels;

    Algorithm(Level first, Level... more) {
        this.levels = EnumSet.of(first, more);
    }

    public boolean allowedAt(Level level) {
        return levels.contains(level);
    }

    /** The algorithms {@code level} accepts, in the order the documentation lists them. */
    public static List<Algorithm> allowedAtLevel(Level level) {
        return Arrays.stream(values()).filter(a -> a.allowedAt(level)).toList();
    }

    /** The name used in level files and JSON, e.g. {@code fabric_multicast}. */
    public String configName() {
        return Keyword.configName(this);
    }

    /** Parses an algorithm name; case and underscores are ignored. */
    public static Optional<Algorithm> fromConfigName(String text) {
        return Keyword.parse(Algorithm.class, text);
    }
}
