package dev.canopy.collectives.plan;

import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.Algorithm;
import dev.canopy.topology.hierarchy.LevelAlgorithms;
import dev.canopy.topology.tree.TreeAlgorithm;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the level file's per-level algorithm into the tree method that runs it. The multicast
 * algorithms ({@code multicast} at the LAN level, {@code fabric-multicast} at the cluster level) run
 * bcast through the multicast layer ({@code dev.canopy.collectives.multicast.BroadcastLayers}, which
 * reads {@link #multicastLevels}); the point-to-point tree at those levels, used by the other
 * collectives and wherever multicast is not usable, is the best one the cost model picks ({@code auto}).
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

    /** A level whose multicast the level file asks for, and which kind. */
    public record MulticastLevel(Level level, Algorithm algorithm) {
    }

    /**
     * The levels at which bcast should multicast, widest first: {@code multicast} (IP multicast) at the LAN
     * level, then {@code fabric-multicast} at the cluster level; each is tried in turn until every member
     * can use one.
     */
    public static List<MulticastLevel> multicastLevels(dev.canopy.gridconfig.model.LevelAlgorithms configured) {
        List<MulticastLevel> levels = new ArrayList<>();
        for (Level level : List.of(Level.LAN, Level.CLUSTER)) {
            Algorithm algorithm = configured.at(level);
            if (algorithm == Algorithm.MULTICAST || algorithm == Algorithm.FABRIC_MULTICAST) {
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
