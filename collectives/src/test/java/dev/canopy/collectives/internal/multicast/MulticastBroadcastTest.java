package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.ThreadDelayScheduler;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.groups.GroupAllocator;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import dev.canopy.multicast.internal.reliable.MulticastStats;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The level file's multicast choices end to end on real in-process nodes (sockets on 127.0.0.1, embedded
 * ZooKeeper, two sites joined by an emulated WAN): {@code fabric-multicast} at the cluster level multicasts
 * inside each site's cluster over the emulated UD fabric with seeded loss, duplication and reordering, the
 * sites' heads joined by a point-to-point tree; {@code multicast} at the LAN level falls back on loopback.
 */
class MulticastBroadcastTest {

    private static final String TWO_SITES = """
            +
            ( &(type = grid) (name = "mcast-two") (default_rtt_ms = 4) (levels = (heavy_wan binomial) %s) )
            ( &(type = subjob) (label = "a") (count = 3) (wan_group = "a") (site = "a") )
            ( &(type = subjob) (label = "b") (count = 3) (wan_group = "b") (site = "b") )
            """;
    private static final int[] SIZES = {0, 8, 1795, 1796, 1797, 5000, 200_000};

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void fabricMulticastAtTheClusterLevelDeliversByteIdenticalBroadcastsDespiteLoss() {
        long seed = System.nanoTime();
        GridModel grid = GridConfigs.parse(TWO_SITES.formatted("(cluster fabric_multicast)"), "mcast-two.rsl")
                .orElseThrow();
        ThreadDelayScheduler wire = new ThreadDelayScheduler("emulated-ud-wire");
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.faulty(0.05, 0, 200_000, seed),
                NanoClock.SYSTEM, wire);
        try (EmulatedGrid job = EmulatedGrid.start(grid, "mcast-cluster", 1)) {
            List<BroadcastLayer> layers = open(job.world(), grid, MulticastFabrics.inProcess(fabric));
            for (BroadcastLayer layer : layers) {
                assertThat(layer.fallback()).isEmpty();
                assertThat(layer.description()).contains("emulated-ud").contains("2 cluster group(s)");
            }
            Random random = new Random(seed);
            for (int root : new int[] {0, 4, 2}) {
                for (int bytes : SIZES) {
                    byte[] message = new byte[bytes];
                    random.nextBytes(message);
                    List<Buffer> got = bcastEverywhere(layers, Buffer.buffer(message), root);
                    for (int rank = 0; rank < got.size(); rank++) {
                        assertThat(got.get(rank).getBytes()).as("rank %d, root %d, %d bytes, seed %d", rank, root,
                                bytes, seed).isEqualTo(message);
                    }
                }
            }
            MulticastStats total = new MulticastStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
            for (BroadcastLayer layer : layers) {
                total = total.plus(Blocking.await(((MulticastBroadcast) layer).stats()));
            }
            assertThat(total.packetsFromFabric()).as("packets that arrived by multicast, seed %d", seed).isPositive();
            assertThat(total.malformedDropped()).isZero();
            assertThat(fabric.stats().lost()).as("seed %d", seed).isPositive();
            layers.forEach(BroadcastLayer::close);
        } finally {
            wire.close();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void ipMulticastOnLoopbackFallsBackToThePointToPointTreesAndSaysWhy() {
        GridModel grid = GridConfigs.parse(TWO_SITES.formatted("(lan multicast)"), "mcast-two.rsl").orElseThrow();
        try (EmulatedGrid job = EmulatedGrid.start(grid, "mcast-lan", 1)) {
            // The level is ruled out (loopback) before any member leases a group, so one allocator serves them all.
            CanopyNode node = job.nodes().get(0);
            List<BroadcastLayer> layers = open(job.world(), grid, MulticastFabrics.ipOnly(new GroupAllocator(
                    node.zooKeeperSession(), node.job(), grid.multicast(), node.context(), 1)));
            for (BroadcastLayer layer : layers) {
                assertThat(layer.description()).isEqualTo("point-to-point trees");
                assertThat(layer.fallback()).hasValueSatisfying(reason -> assertThat(reason)
                        .startsWith("multicast at level lan").contains("loopback"));
            }
            byte[] message = new byte[3000];
            new Random(7).nextBytes(message);
            for (Buffer got : bcastEverywhere(layers, Buffer.buffer(message), 3)) {
                assertThat(got.getBytes()).isEqualTo(message);
            }
        }
    }

    private static List<BroadcastLayer> open(List<Communicator> world, GridModel grid, MulticastFabrics fabrics) {
        List<Future<BroadcastLayer>> opening = new ArrayList<>();
        for (Communicator member : world) {
            Collectives collectives = new Collectives(member, ConfiguredPlans.of(member.members(), grid),
                    CollectiveSettings.defaults());
            opening.add(BroadcastLayers.open(member, collectives, grid.levels(), fabrics, MulticastOptions.DEFAULTS));
        }
        List<BroadcastLayer> layers = new ArrayList<>();
        for (Future<BroadcastLayer> layer : opening) {
            layers.add(Blocking.await(layer));
        }
        return layers;
    }

    private static List<Buffer> bcastEverywhere(List<BroadcastLayer> layers, Buffer message, int root) {
        List<Future<Buffer>> calls = new ArrayList<>();
        for (int rank = 0; rank < layers.size(); rank++) {
            calls.add(layers.get(rank).bcast(rank == root ? message : Buffer.buffer(), root));
        }
        List<Buffer> got = new ArrayList<>();
        for (Future<Buffer> call : calls) {
            got.add(Blocking.await(call));
        }
        return got;
    }
}
