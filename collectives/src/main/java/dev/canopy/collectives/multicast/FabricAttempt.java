package dev.canopy.collectives.multicast;

import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.core.comm.Communicator;
import dev.canopy.multicast.fabric.Fabric;
import dev.canopy.multicast.fabric.MulticastGroup;
import dev.canopy.multicast.fabric.MulticastProbe;
import dev.canopy.multicast.fabric.udp.UdpFabricOptions;
import dev.canopy.multicast.fabric.udp.UdpMulticastFabric;
import dev.canopy.multicast.loop.OwnerLoop;
import dev.canopy.multicast.loop.VertxOwnerLoop;
import io.vertx.core.Future;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * One member's check that it can multicast to its leaf group at one level: the fabric exists here, and a
 * short {@link MulticastProbe} through the group hears every other member of the group. IP multicast is
 * never sent on the loopback interface: members whose address is loopback (one machine, no network
 * namespaces) are told so without probing.
 */
final class FabricAttempt {

    static final Duration PROBE_TIME = Duration.ofMillis(600);
    static final int PROBE_SENDS = 8;

    private final Communicator communicator;
    private final LeafGroups groups;
    private final LevelChoices.MulticastLevel level;
    private final MulticastFabrics fabrics;
    private final OwnerLoop loop;
    private final int group;
    private final int[] ranks;
    private final int localRank;

    FabricAttempt(Communicator communicator, LeafGroups groups, LevelChoices.MulticastLevel level,
            MulticastFabrics fabrics) {
        this.communicator = communicator;
        this.groups = groups;
        this.level = level;
        this.fabrics = fabrics;
        this.loop = new VertxOwnerLoop(communicator.context().owner(), communicator.context());
        this.group = groups.groupOf(communicator.rank());
        this.ranks = groups.ranks(group);
        this.localRank = java.util.Arrays.binarySearch(ranks, communicator.rank());
    }

    /** Empty when this member can multicast to its whole group; otherwise why not. */
    Future<Optional<String>> probe() {
        Optional<String> missing = fabricMissing();
        if (missing.isPresent()) {
            return Future.succeededFuture(missing);
        }
        if (ranks.length < 2) {
            return Future.succeededFuture(Optional.empty());
        }
        return openEndpoint().compose(endpoint -> MulticastProbe.run(endpoint, MulticastBroadcast.groupOf(communicator,
                        group), MulticastBroadcast.jobKey(communicator.members()), localRank, ranks.length, loop,
                        PROBE_TIME, PROBE_SENDS)
                .andThen(ignored -> loop.execute(endpoint::close)))
                .map(result -> result.works() ? Optional.<String>empty()
                        : Optional.of("the " + fabricName() + " probe failed: " + describeMissing(result)))
                .otherwise(e -> Optional.of("the " + fabricName() + " fabric could not be opened: " + e.getMessage()));
    }

    /** A new endpoint of this member on the level's fabric (blocking opens run off the event loop). */
    Future<Fabric> openEndpoint() {
        if (BroadcastLayers.isFabricMulticast(level)) {
            return Future.succeededFuture(fabrics.emulatedSwitch().orElseThrow()
                    .attach("rank-" + communicator.rank(), loop));
        }
        return communicator.context().owner().executeBlocking(() -> UdpMulticastFabric.open(
                UdpFabricOptions.on(InetAddress.getByName(communicator.member(communicator.rank()).address().host())),
                loop));
    }

    private Optional<String> fabricMissing() {
        if (BroadcastLayers.isFabricMulticast(level)) {
            return fabrics.emulatedSwitch().isPresent() ? Optional.empty() : Optional.of("no cluster multicast fabric"
                    + " here: no verbs (InfiniBand) fabric is implemented, and the emulated-ud fabric only serves"
                    + " members in one JVM (canopy demo, canopy bench, tests)");
        }
        String host = communicator.member(communicator.rank()).address().host();
        try {
            InetAddress address = InetAddress.getByName(host);
            if (address.isLoopbackAddress()) {
                return Optional.of("IP multicast is never sent on the loopback interface, and this member's address is "
                        + host + " (members on one machine without network namespaces)");
            }
            if (!(address instanceof Inet4Address)) {
                return Optional.of("this member's address " + host + " is IPv6; only IPv4 groups are implemented");
            }
            return Optional.empty();
        } catch (java.net.UnknownHostException e) {
            return Optional.of("this member's address " + host + " does not resolve: " + e.getMessage());
        }
    }

    private String fabricName() {
        return BroadcastLayers.isFabricMulticast(level) ? "emulated-ud" : "udp";
    }

    private String describeMissing(MulticastProbe.Result result) {
        return "rank " + communicator.rank() + " heard nothing from rank(s) "
                + result.missing().stream().map(local -> ranks[local]).toList();
    }
}
