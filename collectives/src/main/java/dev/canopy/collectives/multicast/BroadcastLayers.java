package dev.canopy.collectives.multicast;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.data.ValueCodec;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.comm.Communicator;
import dev.canopy.gridconfig.model.Algorithm;
import dev.canopy.gridconfig.model.LevelAlgorithms;
import dev.canopy.multicast.fabric.Fabric;
import dev.canopy.multicast.reliable.MulticastOptions;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a communicator's {@link BroadcastLayer} from the level file's choices: for each level that asks
 * for multicast ({@code multicast} at the LAN level first, then {@code fabric-multicast} at the cluster
 * level), every member checks locally that it can use the fabric and probes the group
 * ({@link FabricAttempt}), then the members agree (an allreduce); the first level every member can use
 * runs bcast by multicast. Otherwise bcast runs on the point-to-point trees, and the lowest rank that
 * could not use multicast says why, once, in the log; {@link BroadcastLayer#fallback()} holds the reason.
 * Collective: every member calls {@link #open} with the same level choices.
 */
public final class BroadcastLayers {

    private static final Logger LOG = LoggerFactory.getLogger(BroadcastLayers.class);

    private BroadcastLayers() {
    }

    public static Future<BroadcastLayer> open(Communicator communicator, Collectives collectives,
            LevelAlgorithms configured, MulticastFabrics fabrics, MulticastOptions options) {
        List<LevelChoices.MulticastLevel> asked = LevelChoices.multicastLevels(configured);
        if (asked.isEmpty()) {
            return Future.succeededFuture(new PointToPointBroadcast(collectives, Optional.empty()));
        }
        return tryLevel(communicator, collectives, fabrics, options, asked, 0, new ArrayList<>());
    }

    private static Future<BroadcastLayer> tryLevel(Communicator communicator, Collectives collectives,
            MulticastFabrics fabrics, MulticastOptions options, List<LevelChoices.MulticastLevel> asked, int index,
            List<String> reasons) {
        if (index == asked.size()) {
            return Future.succeededFuture(new PointToPointBroadcast(collectives, Optional.of(String.join("; ", reasons))));
        }
        LevelChoices.MulticastLevel level = asked.get(index);
        LeafGroups groups = LeafGroups.of(communicator.members(), level.level());
        FabricAttempt attempt = new FabricAttempt(communicator, groups, level, fabrics);
        return collectives.barrier()
                .compose(ignored -> attempt.probe())
                .compose(local -> agree(collectives, local.isEmpty() ? Integer.MAX_VALUE : communicator.rank())
                        .compose(firstFailing -> {
                            if (firstFailing == Integer.MAX_VALUE) {
                                return attempt.openEndpoint().map(endpoint -> (BroadcastLayer) MulticastBroadcast.open(
                                        communicator, groups, endpoint, options, describe(level, endpoint, groups)));
                            }
                            String reason = local.orElse("rank " + firstFailing + " cannot use it (its log says why)");
                            String named = level.algorithm().configName() + " at level " + level.level().configName()
                                    + ": " + reason;
                            if (firstFailing == communicator.rank()) {
                                LOG.warn("{} is not usable: {}; {}", level.algorithm().configName() + " at level "
                                        + level.level().configName(), reason, index + 1 < asked.size()
                                        ? "trying " + asked.get(index + 1).algorithm().configName() + " at level "
                                                + asked.get(index + 1).level().configName()
                                        : "bcast uses the point-to-point trees");
                            }
                            reasons.add(named);
                            return tryLevel(communicator, collectives, fabrics, options, asked, index + 1, reasons);
                        }));
    }

    /** The lowest rank whose value is not MAX_VALUE, or MAX_VALUE: every member gets the same answer. */
    private static Future<Integer> agree(Collectives collectives, int value) {
        return collectives.allreduce(ValueCodec.encode(new int[] {value}), ElementType.INT, BuiltInOp.MIN)
                .map(reduced -> ValueCodec.ints(reduced)[0]);
    }

    private static String describe(LevelChoices.MulticastLevel level, Fabric endpoint, LeafGroups groups) {
        return "multicast (" + endpoint.kind() + ") in " + groups.count() + " " + level.level().configName()
                + " group(s)" + (groups.count() > 1 ? ", point-to-point binomial tree between their heads" : "");
    }

    static boolean isFabricMulticast(LevelChoices.MulticastLevel level) {
        return level.algorithm() == Algorithm.FABRIC_MULTICAST;
    }
}
