package dev.canopy.topology.internal.hierarchy;

import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** Which tree method each level uses. Immutable; {@link #with} returns a copy. */
public final class LevelAlgorithms {

    private final Map<Level, TreeAlgorithm> byLevel;

    private LevelAlgorithms(Map<Level, TreeAlgorithm> byLevel) {
        this.byLevel = Collections.unmodifiableMap(new EnumMap<>(byLevel));
    }

    /**
     * MPICH-GX's choice (design note, "The five levels"): HLOT at heavy-WAN, flat at light-WAN,
     * binomial at LAN, cluster and host.
     */
    public static LevelAlgorithms mpichGx() {
        Map<Level, TreeAlgorithm> defaults = new EnumMap<>(Level.class);
        defaults.put(Level.HEAVY_WAN, TreeAlgorithm.HLOT);
        defaults.put(Level.LIGHT_WAN, TreeAlgorithm.FLAT);
        defaults.put(Level.LAN, TreeAlgorithm.BINOMIAL);
        defaults.put(Level.CLUSTER, TreeAlgorithm.BINOMIAL);
        defaults.put(Level.HOST, TreeAlgorithm.BINOMIAL);
        return new LevelAlgorithms(defaults);
    }

    /**
     * The choices of a level file ({@code levels = (heavy_wan hlot) ...}). Multicast, fabric multicast
     * and shared memory ({@code local}) reach every unit of a group in one step: the plan models them
     * as a flat tree, whose sends the runtime replaces by the multicast.
     */
    public static LevelAlgorithms fromLevelFile(dev.canopy.gridconfig.model.LevelAlgorithms levelFile) {
        Map<Level, TreeAlgorithm> mapped = new EnumMap<>(Level.class);
        for (Level level : Level.values()) {
            mapped.put(level, switch (levelFile.at(level)) {
                case HLOT -> TreeAlgorithm.HLOT;
                case FLAT, MULTICAST, FABRIC_MULTICAST, LOCAL -> TreeAlgorithm.FLAT;
                case BINOMIAL -> TreeAlgorithm.BINOMIAL;
                case MST -> TreeAlgorithm.MST;
                case SPT -> TreeAlgorithm.SPT;
                case CHAIN -> TreeAlgorithm.CHAIN;
                case BINARY -> TreeAlgorithm.BINARY;
                case AUTO -> TreeAlgorithm.AUTO;
            });
        }
        return new LevelAlgorithms(mapped);
    }

    /** The same algorithm at every level, e.g. {@code AUTO}. */
    public static LevelAlgorithms everywhere(TreeAlgorithm algorithm) {
        Map<Level, TreeAlgorithm> all = new EnumMap<>(Level.class);
        for (Level level : Level.values()) {
            all.put(level, algorithm);
        }
        return new LevelAlgorithms(all);
    }

    public LevelAlgorithms with(Level level, TreeAlgorithm algorithm) {
        Map<Level, TreeAlgorithm> changed = new EnumMap<>(byLevel);
        changed.put(level, algorithm);
        return new LevelAlgorithms(changed);
    }

    public TreeAlgorithm at(Level level) {
        return byLevel.get(level);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LevelAlgorithms that && byLevel.equals(that.byLevel);
    }

    @Override
    public int hashCode() {
        return byLevel.hashCode();
    }

    @Override
    public String toString() {
        return byLevel.toString();
    }
}
