package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.data.ValueCodec;
import dev.canopy.collectives.internal.engine.BroadcastPath;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.comm.Communicator;
import dev.canopy.gridconfig.model.LevelAlgorithms;
import dev.canopy.multicast.internal.fabric.Fabric;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plugs the level file's multicast choices into a communicator's bcast ({@link #plugInto}: collectives whose
 * bcast goes through a {@link MulticastPath} where the members can multicast). The levels are tried widest
 * first ({@code multicast} or {@code auto} at the LAN level, then {@code fabric-multicast} or {@code auto} at
 * the cluster level, {@link LevelChoices#multicastLevels}):
 *
 * <ul>
 *   <li>what every member can tell alike from the membership (no cluster fabric here, a loopback or IPv6
 *       address, groups of one) rules a level out at once, with no message exchanged;</li>
 *   <li>otherwise every member leases its group's address through ZooKeeper where the process has an allocator
 *       ({@link LeafGroupAddress}: always in a real job), probes the group through the fabric ({@link FabricAttempt}, after a barrier),
 *       each group's first member measures the fabric's round trip ({@link FabricEcho}, for {@code auto}'s
 *       {@link BroadcastCostModel} with the plan's one-way latency inside the groups), and the members agree
 *       (an allreduce); the first level every member can use carries bcast.</li>
 * </ul>
 *
 * Where none can, bcast stays on the point-to-point trees; when the level file asked for multicast by name,
 * rank 0 says why once (a WARN line in the log, which {@code canopy launch} shows) and
 * {@link BroadcastPath#fallback()} holds the reason. Collective: every member calls it with the same choices
 * and the same kind of {@link MulticastFabrics}, before other collectives on the communicator are in flight.
 */
public final class BroadcastLayers {

    private static final Logger LOG = LoggerFactory.getLogger(BroadcastLayers.class);

    private BroadcastLayers() {
    }

    /** {@code collectives} with bcast on the path the level file's choices give (the same sequence and plan). */
    public static Future<Collectives> plugInto(Collectives collectives, LevelAlgorithms configured,
            MulticastFabrics fabrics, MulticastOptions options) {
        List<LevelChoices.MulticastLevel> asked = LevelChoices.multicastLevels(configured);
        if (asked.isEmpty()) {
            return Future.succeededFuture(collectives);
        }
        return tryLevel(collectives, fabrics, options, asked, 0, new ArrayList<>())
                .map(collectives::withBroadcastPath);
    }

    /** A stand-alone {@link BroadcastLayer} over {@code collectives} (benchmarks compare it with the trees). */
    public static Future<BroadcastLayer> open(Communicator communicator, Collectives collectives,
            LevelAlgorithms configured, MulticastFabrics fabrics, MulticastOptions options) {
        if (communicator != collectives.communicator()) {
            throw new IllegalArgumentException("the collectives run over another communicator");
        }
        return plugInto(collectives, configured, fabrics, options).map(plugged ->
                plugged.broadcastPath() instanceof MulticastPath path
                        ? new MulticastBroadcast(plugged, path)
                        : new PointToPointBroadcast(plugged, plugged.broadcastPath().fallback()));
    }

    private static Future<BroadcastPath> tryLevel(Collectives collectives, MulticastFabrics fabrics,
            MulticastOptions options, List<LevelChoices.MulticastLevel> asked, int index, List<String> reasons) {
        Communicator communicator = collectives.communicator();
        if (index == asked.size()) {
            return Future.succeededFuture(fallBack(communicator, asked, reasons));
        }
        LevelChoices.MulticastLevel level = asked.get(index);
        LeafGroups groups = LeafGroups.of(communicator.members(), level.level());
        FabricAttempt attempt = new FabricAttempt(communicator, groups, level, fabrics);
        Optional<String> unavailable = attempt.unavailable();
        if (unavailable.isPresent()) {
            reasons.add(level + ": " + unavailable.get());
            return tryLevel(collectives, fabrics, options, asked, index + 1, reasons);
        }
        return LeafGroupAddress.of(communicator, groups, level.level().configName(), fabrics.leases())
                .transform(leased -> collectives.barrier().compose(ignored -> leased.succeeded()
                        ? attempt.probe(leased.result().group())
                        : Future.succeededFuture(new FabricAttempt.Outcome(Optional.of("no multicast group could be"
                                + " leased: " + leased.cause().getMessage()), OptionalDouble.empty())))
                .compose(local -> agree(collectives, local).compose(agreed -> {
                    if (agreed.firstFailing() == Integer.MAX_VALUE) {
                        return openEverywhere(collectives, attempt, level, groups, leased.result(),
                                agreed.roundTripMicros(), options, reasons)
                                .compose(opened -> opened.isPresent() ? Future.succeededFuture(opened.get())
                                        : tryLevel(collectives, fabrics, options, asked, index + 1, reasons));
                    }
                    if (leased.succeeded()) {
                        leased.result().release();
                    }
                    String reason = local.failure()
                            .orElse("rank " + agreed.firstFailing() + " cannot use it (its log says why)");
                    if (agreed.firstFailing() == communicator.rank()) {
                        LOG.warn("{} is not usable: {}", level, reason);
                    }
                    reasons.add(level + ": " + reason);
                    return tryLevel(collectives, fabrics, options, asked, index + 1, reasons);
                })));
    }

    /**
     * Opens this member's endpoint for good; the members agree once more, so that a member whose endpoint fails
     * to open (after a probe that worked) makes every member try the next level instead of leaving the others
     * multicasting to it. Empty when one failed (that member logs why; {@code reasons} names it).
     */
    private static Future<Optional<BroadcastPath>> openEverywhere(Collectives collectives, FabricAttempt attempt,
            LevelChoices.MulticastLevel level, LeafGroups groups, LeafGroupAddress address,
            OptionalDouble roundTripMicros, MulticastOptions options, List<String> reasons) {
        Communicator communicator = collectives.communicator();
        return attempt.openEndpoint().transform(opened -> {
            if (opened.failed()) {
                LOG.warn("{} is not usable: rank {} could not open its {} endpoint: {}", level, communicator.rank(),
                        attempt.fabricName(), opened.cause().getMessage());
            }
            int failing = opened.succeeded() ? Integer.MAX_VALUE : communicator.rank();
            return collectives.allreduce(ValueCodec.encode(new int[] {failing}), ElementType.INT, BuiltInOp.MIN)
                    .map(reduced -> {
                        int firstFailing = ValueCodec.ints(reduced)[0];
                        if (firstFailing == Integer.MAX_VALUE) {
                            return Optional.of(open(collectives, level, groups, address, opened.result(),
                                    roundTripMicros, options));
                        }
                        if (opened.succeeded()) {
                            opened.result().close();
                        }
                        address.release();
                        reasons.add(level + ": rank " + firstFailing + " could not open its " + attempt.fabricName()
                                + " endpoint (its log says why)");
                        return Optional.<BroadcastPath>empty();
                    });
        });
    }

    private static BroadcastPath open(Collectives collectives, LevelChoices.MulticastLevel level, LeafGroups groups,
            LeafGroupAddress address, Fabric endpoint, OptionalDouble roundTripMicros, MulticastOptions options) {
        Communicator communicator = collectives.communicator();
        double flightMicros = roundTripMicros.isPresent() ? roundTripMicros.getAsDouble() / 2
                : BroadcastCostModel.JVM_SUBSTRATE.multicastMicros();
        Optional<BroadcastCostModel> auto = level.automatic()
                ? Optional.of(BroadcastCostModel.measured(flightMicros, endpoint.mtu(),
                        collectives.settings().pipeline(), oneWayMicrosInGroups(collectives.plan(), groups),
                        largestGroup(groups)))
                : Optional.empty();
        String description = "multicast (" + endpoint.kind() + ") in " + groups.count() + " "
                + level.level().configName() + " group(s)"
                + (groups.count() > 1 ? ", the plan's tree between their heads" : "")
                + auto.map(model -> "; " + model).orElse("");
        if (communicator.rank() == 0) {
            LOG.info("bcast: {} ({})", description, level);
        }
        return MulticastPath.open(communicator, groups, address, endpoint, options, auto, description);
    }

    private static BroadcastPath fallBack(Communicator communicator, List<LevelChoices.MulticastLevel> asked,
            List<String> reasons) {
        boolean named = asked.stream().anyMatch(level -> !level.automatic());
        String why = String.join("; ", reasons);
        if (communicator.rank() == 0) {
            if (named) {
                LOG.warn("bcast falls back to the point-to-point trees: {}", why);
            } else {
                LOG.info("bcast uses the point-to-point trees (auto): {}", why);
            }
        }
        return BroadcastPath.pointToPoint(named ? Optional.of(why) : Optional.empty());
    }

    /**
     * The plan's median one-way latency from each group's lowest rank to the others, in microseconds (what the
     * level file or the probes say about a group's links); {@link BroadcastCostModel#JVM_SUBSTRATE}'s T_pp when
     * the plan predicts none.
     */
    static double oneWayMicrosInGroups(CollectivePlan plan, LeafGroups groups) {
        List<Double> samples = new ArrayList<>();
        for (int g = 0; g < groups.count(); g++) {
            int[] ranks = groups.ranks(g);
            for (int i = 1; i < ranks.length; i++) {
                double ms = plan.oneWayMs(ranks[0], ranks[i]);
                if (ms >= 0 && !Double.isInfinite(ms)) {
                    samples.add(ms * 1000);
                }
            }
        }
        if (samples.isEmpty()) {
            return BroadcastCostModel.JVM_SUBSTRATE.pointToPointMicros();
        }
        double[] sorted = samples.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[sorted.length / 2];
    }

    private static int largestGroup(LeafGroups groups) {
        int largest = 1;
        for (int g = 0; g < groups.count(); g++) {
            largest = Math.max(largest, groups.ranks(g).length);
        }
        return largest;
    }

    /**
     * What the members agree on: the lowest rank that cannot multicast ({@code MAX_VALUE} if none), and the
     * longest fabric round trip any group measured (empty if none did).
     */
    private record Agreement(int firstFailing, OptionalDouble roundTripMicros) {
    }

    /** One allreduce (MIN of "my rank if I cannot, else MAX" and of the negated round trip): every member gets the same answer. */
    private static Future<Agreement> agree(Collectives collectives, FabricAttempt.Outcome local) {
        int failing = local.failure().isPresent() ? collectives.rank() : Integer.MAX_VALUE;
        int negatedRoundTrip = -(int) Math.min(Integer.MAX_VALUE, Math.ceil(local.roundTripMicros().orElse(0)));
        return collectives.allreduce(ValueCodec.encode(new int[] {failing, negatedRoundTrip}), ElementType.INT,
                        BuiltInOp.MIN)
                .map(ValueCodec::ints)
                .map(agreed -> new Agreement(agreed[0], agreed[1] < 0 ? OptionalDouble.of(-agreed[1])
                        : OptionalDouble.empty()));
    }
}
