package dev.canopy.collectives.plan;

import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.Algorithm;
import dev.canopy.topology.hierarchy.LevelAlgorithms;
import dev.canopy.topology.tree.TreeAlgorithm;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the level file's per-level algorithm into the tree method that runs it. The multicast
 * algorithms (IP multicast, fabric multicast) and host shared memory are not available yet: those
 * levels run the best point-to-point tree the cost model picks ({@code auto}) and say so in the log.
 * This is the plug-in point where multicast will attach.
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
            case MULTICAST, FABRIC_MULTICAST, LOCAL -> {
                LOG.info("level {} asks for {}, which is not available yet; it uses the best point-to-point tree (auto)",
                        level.configName(), algorithm.configName());
                yield TreeAlgorithm.AUTO;
            }
        };
    }
}
