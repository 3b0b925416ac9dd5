package dev.canopy.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.grid.GridCommunicators;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.LinkProfile;
import dev.canopy.core.internal.emulation.WanEmulation;
import dev.canopy.core.internal.emulation.WanEmulationLayer;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Collectives that queue far more for their peers than the write-queue limits hold wait for the queues to drain
 * and complete: a full queue is back-pressure to wait out, not a failure that aborts the collective. (Before,
 * the send that passed a limit failed with BackPressureException and the collective aborted; docs/topology.md
 * saw a flat 16 MB bcast fail so on the emulated grid.)
 */
@Timeout(120)
class FullWriteQueueTest {

    private static final int MEMBERS = 4;
    private static final int BYTES = 8 << 20;
    /** Every member at a site of its own, 200 Mbit/s between them, and 256 KiB of queue per node for the WAN. */
    private static final WanEmulation SLOW_WAN = WanEmulation.withDefaultRtt(2)
            .withLink("s0", "s1", LinkProfile.rtt(2).withBandwidthMbps(200))
            .withLink("s0", "s2", LinkProfile.rtt(2).withBandwidthMbps(200))
            .withLink("s0", "s3", LinkProfile.rtt(2).withBandwidthMbps(200))
            .withQueueLimitBytesPerNode(256 * 1024);
    /** 64 KiB to the socket at a time, 128 KiB held per peer. */
    private static final TransportOptions SMALL_QUEUES = TransportOptions.defaults()
            .withWriteQueue(64 * 1024, 128 * 1024, Duration.ofSeconds(30));

    private final WanEmulator wan = WanEmulator.start(SLOW_WAN);
    private LocalGrid grid;

    @AfterEach
    void stop() {
        if (grid != null) {
            grid.close();
        }
        wan.close();
    }

    @Test
    void aFlatBcastFarBeyondTheQueueLimitsCompletesOnEveryMember() {
        grid = LocalGrid.start("full-write-queue", MEMBERS, FullWriteQueueTest::siteOf,
                options -> options.withTransport(SMALL_QUEUES)
                        .withLayers(below -> new WanEmulationLayer(below, wan, options.coordinates(), 7)));
        byte[] data = new byte[BYTES];
        new SplittableRandom(17).nextBytes(data);
        List<Future<Buffer>> received = new ArrayList<>();
        for (Communicator member : grid.world()) {
            Collectives collectives = new Collectives(member, GridCommunicators.planFor(member, TreeAlgorithm.FLAT),
                    CollectiveSettings.defaults());
            received.add(collectives.bcast(member.rank() == 0 ? Buffer.buffer(data) : null, 0));
        }
        for (Future<Buffer> copy : received) {
            assertThat(LocalGrid.await(copy).getBytes()).isEqualTo(data);
        }
    }

    private static Coordinates siteOf(int index) {
        return new Coordinates("w" + index, "s" + index, "l" + index, "c" + index, "h" + index);
    }
}
