package dev.canopy.collectives.plan;

import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.Algorithm;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the level file's per-level algorithm into the tree method that runs it. The multicast
 * algorithms ({@code multicast} at the LAN level, {@code fabric-multicast} at the cluster level) run
 * bcast through the multicast layer ({@code dev.canopy.collectives.internal.multicast.BroadcastLayers}, which
 * reads {@link #multicastLevels}; {@code auto} at those levels lets its cost model choose per message
 * size); the point-to-point tree at those levels, used by the other collectives and wherever multicast
 * is not usable, is the best one the cost model picks ({@code auto}).
 * Host shared memory ({@code local}) is not available yet and runs {@code auto} too.
 */
public final class LevelChoices {

    private static final Logger LOG = LoggerFactory.getLogger(LevelChoices.class);

    private LevelChoices() {
    }

    public static LevelAlgorithms of(dev.canopy.gridconfig.model.LevelAlgorithms configured) {
        LevelAlgorithms chosen = LevelAlgorithms.everywhere(TreeAlgorithm.AUTO);
        for (Level level : Level.values()) {
            chosen = chosen.with(level, treeFor(level, configured.at(level)));
        }
        return chosen;
    }

    /** The fabric a multicast level runs on: IP multicast ({@code udp}) or a cluster fabric (InfiniBand-style). */
    public enum FabricKind {
        IP, CLUSTER
    }

    /**
     * A level at which bcast may multicast: asked for by name ({@code multicast}, {@code fabric-multicast}), or
     * {@code auto}, where the cost model picks multicast or the point-to-point tree per message size.
     */
    public record MulticastLevel(Level level, Algorithm algorithm) {

        /** {@code auto}: multicast only where the cost model says it pays, and its absence is no fallback. */
        public boolean automatic() {
            return algorithm == Algorithm.AUTO;
        }

        /** {@code fabric-multicast}, and {@code auto} at the cluster level, use the cluster fabric; the others IP multicast. */
        public FabricKind fabric() {
            return algorithm == Algorithm.FABRIC_MULTICAST || (automatic() && level == Level.CLUSTER)
                    ? FabricKind.CLUSTER : FabricKind.IP;
        }

        /** E.g. "multicast at level lan". */
        @Override
        public String toString() {
            return algorithm.configName() + " at level " + level.configName();
        }
    }

    /**
     * The levels at which bcast may multicast, widest first: the LAN level, then the cluster level, each where
     * the level file says {@code multicast}, {@code fabric-multicast} or {@code auto}; each is tried in turn
     * until every member can use one.
     */
    public static List<MulticastLevel> multicastLevels(dev.canopy.gridconfig.model.LevelAlgorithms configured) {
        List<MulticastLevel> levels = new ArrayList<>();
        for (Level level : List.of(Level.LAN, Level.CLUSTER)) {
            Algorithm algorithm = configured.at(level);
            if (algorithm == Algorithm.MULTICAST || algorithm == Algorithm.FABRIC_MULTICAST
                    || algorithm == Algorithm.AUTO) {
                levels.add(new MulticastLevel(level, algorithm));
            }
        }
        return levels;
    }

    static TreeAlgorithm treeFor(Level level, Algorithm algorithm) {
        return switch (algorithm) {
            case HLOT -> TreeAlgorithm.HLOT;
            case FLAT -> TreeAlgorithm.FLAT;
            case BINOMIAL -> TreeAlgorithm.BINOMIAL;
            case MST -> TreeAlgorithm.MST;
            case SPT -> TreeAlgorithm.SPT;
            case CHAIN -> TreeAlgorithm.CHAIN;
            case BINARY -> TreeAlgorithm.BINARY;
            case AUTO -> TreeAlgorithm.AUTO;
            case MULTICAST, FABRIC_MULTICAST -> {
                LOG.debug("level {} asks for {}: bcast uses multicast where every member can (the multicast layer);"
                        + " its point-to-point tree is auto", level.configName(), algorithm.configName());
                yield TreeAlgorithm.AUTO;
            }
            case LOCAL -> {
                LOG.info("level {} asks for {}, which is not available yet; it uses the best point-to-point tree (auto)",
                        level.configName(), algorithm.configName());
                yield TreeAlgorithm.AUTO;
            }
        };
    }
}
