package dev.canopy.cli.bench.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.internal.multicast.MulticastBroadcast;
import dev.canopy.collectives.internal.multicast.MulticastFabrics;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.ThreadDelayScheduler;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.fabric.udp.UdpFabricOptions;
import dev.canopy.multicast.internal.groups.GroupAllocator;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The bench's retries of the multicast layer, over an in-process switch standing in for IP multicast, with every
 * leaf group leased through the job's real ZooKeeper (as over {@code udp}): 8 members of one LAN.
 */
class LayerAttemptsTest {

    private static final int MEMBERS = 8;
    private static final long SEED = 11;

    @Test
    void everyRetryAfterAFailedProbeLeasesItsGroupAndProbesAgain() {
        // Nearly every datagram lost (a member hears another's 8 probes with odds under 1 %, all 7 others never):
        // every probe fails, and each retry must get as far as probing again.
        openAll(0.999, opened -> {
            for (LayerAttempts.Opened member : opened) {
                assertThat(member.layer().fallback()).hasValueSatisfying(why -> assertThat(why).contains("probe failed"));
                assertThat(member.failedAttempts()).hasSize(2).allSatisfy(why -> assertThat(why)
                        .contains("probe failed").doesNotContain("lease"));
            }
        });
    }

    @Test
    void aWorkingFabricOpensMulticastAtTheFirstAttempt() {
        openAll(0.0, opened -> {
            List<Future<Buffer>> received = new ArrayList<>();
            for (int rank = 0; rank < MEMBERS; rank++) {
                assertThat(opened.get(rank).layer()).isInstanceOf(MulticastBroadcast.class);
                assertThat(opened.get(rank).failedAttempts()).isEmpty();
                received.add(opened.get(rank).layer().bcast(Buffer.buffer(rank == 3 ? "from three" : ""), 3));
            }
            for (Future<Buffer> bytes : received) {
                assertThat(Blocking.await(bytes).toString()).isEqualTo("from three");
            }
        });
    }

    /** Every member opens its layer with up to 3 attempts, over a switch losing {@code loss} of its datagrams. */
    private static void openAll(double loss, Consumer<List<LayerAttempts.Opened>> check) {
        GridModel grid = GridConfigs.parse("""
                +
                ( &(type = grid) (name = "attempts") (levels = (lan multicast)) )
                ( &(type = subjob) (label = "lan") (count = %d) )
                """.formatted(MEMBERS), "attempts.rsl").orElseThrow();
        ThreadDelayScheduler wire = new ThreadDelayScheduler("layer-attempts-wire");
        EmulatedUdSwitch ipSwitch = new EmulatedUdSwitch(new EmulatedUdOptions(EmulatedUdOptions.DEFAULT_WIRE_MTU,
                EmulatedUdOptions.DEFAULT_HEADER_OVERHEAD, loss, 0, 0, 0, 0, SEED), NanoClock.SYSTEM, wire);
        try (EmulatedGrid job = EmulatedGrid.start(grid, "layer-attempts-" + ProcessHandle.current().pid(), SEED)) {
            List<Future<LayerAttempts.Opened>> opening = new ArrayList<>();
            for (int rank = 0; rank < MEMBERS; rank++) {
                Communicator world = job.world().get(rank);
                CanopyNode node = job.nodes().get(rank);
                GroupAllocator leases = new GroupAllocator(node.zooKeeperSession(), node.job(), grid.multicast(),
                        world.context(), SEED + rank);
                MulticastFabrics fabrics = new MulticastFabrics(Optional.empty(), Optional.of(ipSwitch),
                        Optional.of(leases), UdpFabricOptions.DEFAULT_MTU);
                opening.add(new LayerAttempts(world, communicator -> MulticastBenchMember.binomialOver(communicator, grid),
                        grid.levels(), fabrics, MulticastOptions.DEFAULTS).open(3));
            }
            List<LayerAttempts.Opened> opened = new ArrayList<>();
            opening.forEach(layer -> opened.add(Blocking.await(layer)));
            try {
                check.accept(opened);
            } finally {
                opened.forEach(member -> member.layer().close());
            }
        } finally {
            wire.close();
        }
    }
}
