package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.core.comm.Communicator;
import dev.canopy.multicast.internal.fabric.Fabric;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.fabric.MulticastProbe;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.fabric.udp.UdpFabricOptions;
import dev.canopy.multicast.internal.fabric.udp.UdpMulticastFabric;
import dev.canopy.multicast.internal.loop.OwnerLoop;
import dev.canopy.multicast.internal.loop.VertxOwnerLoop;
import io.vertx.core.Future;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One member's check that the communicator can multicast to its leaf groups at one level. What every member
 * can tell alike, it tells without a word to the others ({@link #unavailable}): there is no cluster fabric
 * here, or some member's address is loopback (IP multicast is never sent on the machine's own interfaces) or
 * not IPv4. Otherwise a short {@link MulticastProbe} through the group must hear every other member of the
 * group, and a {@link FabricEcho} measures the fabric's round trip ({@link #probe}); the members then agree
 * on the outcome.
 */
final class FabricAttempt {

    static final Duration PROBE_TIME = Duration.ofMillis(600);
    static final int PROBE_SENDS = 8;
    static final Duration ECHO_TIME = Duration.ofMillis(300);

    private final Communicator communicator;
    private final LeafGroups groups;
    private final LevelChoices.MulticastLevel level;
    private final Optional<EmulatedUdSwitch> emulated;
    private final int udpMtu;
    private final OwnerLoop loop;
    private final int group;
    private final int[] ranks;
    private final int localRank;

    FabricAttempt(Communicator communicator, LeafGroups groups, LevelChoices.MulticastLevel level,
            MulticastFabrics fabrics) {
        this.communicator = communicator;
        this.groups = groups;
        this.level = level;
        this.emulated = fabrics.emulatedFor(level.fabric());
        this.udpMtu = fabrics.udpMtu();
        this.loop = new VertxOwnerLoop(communicator.context().owner(), communicator.context());
        this.group = groups.groupOf(communicator.rank());
        this.ranks = groups.ranks(group);
        this.localRank = java.util.Arrays.binarySearch(ranks, communicator.rank());
    }

    /** Why no member can multicast at this level, the same on every member (from the membership alone); else empty. */
    Optional<String> unavailable() {
        if (emulated.isEmpty() && level.fabric() == LevelChoices.FabricKind.CLUSTER) {
            return Optional.of("no cluster multicast fabric here: no verbs (InfiniBand) fabric is implemented, and the"
                    + " emulated-ud fabric only serves members in one JVM (canopy demo, canopy bench, tests)");
        }
        boolean anyGroup = false;
        for (int g = 0; g < groups.count(); g++) {
            anyGroup |= groups.ranks(g).length > 1;
        }
        if (!anyGroup) {
            return Optional.of("every " + level.level().configName() + " group has a single member");
        }
        if (emulated.isPresent()) {
            return Optional.empty();
        }
        for (int rank = 0; rank < communicator.size(); rank++) {
            Optional<String> unusable = unusableAddress(rank, communicator.member(rank).address().host());
            if (unusable.isPresent()) {
                return unusable;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> unusableAddress(int rank, String host) {
        try {
            InetAddress address = InetAddress.getByName(host);
            if (address.isLoopbackAddress()) {
                return Optional.of("IP multicast is never sent on the loopback interface, and rank " + rank
                        + "'s address is " + host + " (members on one machine without network namespaces)");
            }
            if (!(address instanceof Inet4Address)) {
                return Optional.of("rank " + rank + "'s address " + host + " is IPv6; only IPv4 groups are implemented");
            }
            return Optional.empty();
        } catch (java.net.UnknownHostException e) {
            return Optional.of("rank " + rank + "'s address " + host + " does not resolve: " + e.getMessage());
        }
    }

    /**
     * What this member found: whether it heard every other member of its group through the fabric, and (at a
     * group's first member) the fabric's round trip.
     *
     * @param failure         empty when this member heard everyone; otherwise why not
     * @param roundTripMicros the median PING-PONG time through the fabric ({@link FabricEcho}), where measured
     */
    record Outcome(Optional<String> failure, OptionalDouble roundTripMicros) {
    }

    /** Probes {@code multicastGroup} (this member's leaf group's), then measures the fabric's round trip on the same endpoint. */
    Future<Outcome> probe(MulticastGroup multicastGroup) {
        if (ranks.length < 2) {
            return Future.succeededFuture(new Outcome(Optional.empty(), OptionalDouble.empty()));
        }
        long job = MulticastPath.jobKey(communicator.members());
        return openEndpoint().compose(endpoint -> MulticastProbe.run(endpoint, multicastGroup, job, localRank,
                        ranks.length, loop, PROBE_TIME, PROBE_SENDS)
                .compose(result -> result.works()
                        ? FabricEcho.run(endpoint, multicastGroup, job, localRank, loop, ECHO_TIME)
                                .map(roundTrip -> new Outcome(Optional.empty(), roundTrip))
                        : Future.succeededFuture(new Outcome(Optional.of("the " + fabricName() + " probe failed: "
                                + describeMissing(result)), OptionalDouble.empty())))
                .andThen(ignored -> loop.execute(endpoint::close)))
                .otherwise(e -> new Outcome(Optional.of("the " + fabricName() + " fabric could not be opened: "
                        + e.getMessage()), OptionalDouble.empty()));
    }

    /** A new endpoint of this member on the level's fabric (blocking opens run off the event loop). */
    Future<Fabric> openEndpoint() {
        if (emulated.isPresent()) {
            return Future.succeededFuture(emulated.get().attach("rank-" + communicator.rank(), loop));
        }
        return communicator.context().owner().executeBlocking(() -> UdpMulticastFabric.open(
                UdpFabricOptions.on(InetAddress.getByName(communicator.member(communicator.rank()).address().host()))
                        .withMtu(udpMtu),
                loop));
    }

    String fabricName() {
        return emulated.isPresent() ? "emulated-ud" : "udp";
    }

    private String describeMissing(MulticastProbe.Result result) {
        return "rank " + communicator.rank() + " heard nothing from rank(s) "
                + result.missing().stream().map(local -> ranks[local]).toList();
    }
}
