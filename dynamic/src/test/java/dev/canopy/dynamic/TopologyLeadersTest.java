package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On the emulated WAN of four-site.rsl (server job at alpha and beta, client job at gamma and delta; beta-gamma
 * 4 ms RTT, every other pair between the jobs 60 to 80 ms), the topology-aware inter phase takes the round trips
 * from the level file's links and crosses between beta and gamma, a rooted operation between its root and the client
 * site nearest to it; given a level file without those links (four-site-unlinked.rsl), it measures them and crosses
 * there too; the flat phase crosses between the rank 0s. Both inter-communicators run side by side; the latencies are
 * logged (timings are for benchmarks, not asserted here).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TopologyLeadersTest {

    private static final Logger LOG = LoggerFactory.getLogger(TopologyLeadersTest.class);
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private TwoJobs jobs;
    private TwoJobs.Pair topology;
    private TwoJobs.Pair flat;
    private TwoJobs.Pair measured;
    private final Map<TwoJobs.Process, DynamicProcesses> flatDynamics = new HashMap<>();
    private final Map<TwoJobs.Process, DynamicProcesses> measuredDynamics = new HashMap<>();

    @BeforeAll
    void connect() {
        jobs = TwoJobs.start(TwoJobs.fourSites(), new int[] {0, 1, 3, 4}, new int[] {6, 7, 9}, true, InterPhase.TOPOLOGY);
        topology = jobs.connect("near");
        Function<TwoJobs.Process, DynamicProcesses> flatOf = process -> flatDynamics.computeIfAbsent(process,
                p -> DynamicProcesses.over(p.collectives(), jobs.grid, jobs.options(p.index(), InterPhase.FLAT)));
        flat = jobs.connect("far", flatOf);
        GridModel unlinked = TwoJobs.grid("four-site-unlinked.rsl");
        measured = jobs.connect("measured", process -> measuredDynamics.computeIfAbsent(process,
                p -> DynamicProcesses.over(p.collectives(), unlinked, jobs.options(p.index(), InterPhase.TOPOLOGY))));
    }

    @AfterAll
    void close() {
        for (TwoJobs.Pair pair : Arrays.asList(topology, flat, measured)) {
            if (pair != null) {
                pair.disconnect();
            }
        }
        flatDynamics.values().forEach(DynamicProcesses::close);
        measuredDynamics.values().forEach(DynamicProcesses::close);
        if (jobs != null) {
            jobs.close();
        }
    }

    @Test
    void theTopologyPhaseCrossesBetweenTheNearestSitesAndFlatBetweenRankZeros() {
        for (InterCommunicator server : topology.server()) {
            assertThat(jobs.server.get(server.leader()).node().coordinates().site()).isEqualTo("beta");
        }
        for (InterCommunicator client : topology.client()) {
            assertThat(jobs.client.get(client.leader()).node().coordinates().site()).isEqualTo("gamma");
        }
        assertThat(flat.all()).allSatisfy(inter -> assertThat(inter.leader()).isZero());
    }

    @Test
    void withoutTheLinksInTheLevelFileTheTopologyPhaseMeasuresAndCrossesBetweenTheNearestSites() {
        for (InterCommunicator server : measured.server()) {
            assertThat(jobs.server.get(server.leader()).node().coordinates().site()).isEqualTo("beta");
        }
        for (InterCommunicator client : measured.client()) {
            assertThat(jobs.client.get(client.leader()).node().coordinates().site()).isEqualTo("gamma");
        }
        medianAllreduceMs(measured, 8); // and it carries collectives (each result checked)
    }

    @Test
    void bothPhasesGiveTheSameResultsAndTheirLatenciesAreLogged() {
        int[] sizes = {8, 512 * 1024};
        for (int bytes : sizes) {
            double topologyBcast = medianBcastMs(topology, bytes);
            double flatBcast = medianBcastMs(flat, bytes);
            double topologyAllreduce = medianAllreduceMs(topology, bytes);
            double flatAllreduce = medianAllreduceMs(flat, bytes);
            LOG.info("{} bytes, median of 5 on the emulated four-site WAN: bcast from alpha topology {} ms, flat {} ms;"
                    + " allreduce topology {} ms, flat {} ms", bytes, String.format("%.1f", topologyBcast),
                    String.format("%.1f", flatBcast), String.format("%.1f", topologyAllreduce),
                    String.format("%.1f", flatAllreduce));
        }
    }

    /** Server rank 0 (alpha) bcasts to the clients; the time until every client has it, as the root sees it. */
    private static double medianBcastMs(TwoJobs.Pair pair, int bytes) {
        double[] ms = new double[5];
        for (int run = 0; run < ms.length; run++) {
            long start = System.nanoTime();
            List<Future<Buffer>> all = new ArrayList<>();
            for (InterCommunicator server : pair.server()) {
                all.add(server.bcast(server.rank() == 0 ? Buffer.buffer(new byte[bytes]) : null,
                        server.rank() == 0 ? InterCommunicator.ROOT : InterCommunicator.PROC_NULL));
            }
            pair.client().forEach(client -> all.add(client.bcast(null, 0)));
            for (int i = 0; i < all.size(); i++) {
                Buffer got = Await.result(all.get(i), DEADLINE);
                if (i >= pair.server().size()) {
                    assertThat(got.length()).isEqualTo(bytes);
                }
            }
            ms[run] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(ms);
        return ms[ms.length / 2];
    }

    private static double medianAllreduceMs(TwoJobs.Pair pair, int bytes) {
        double[] ms = new double[5];
        for (int run = 0; run < ms.length; run++) {
            long start = System.nanoTime();
            List<Future<Buffer>> all = pair.all().stream()
                    .map(inter -> inter.allreduce(Buffer.buffer(new byte[bytes]), ElementType.BYTE, BuiltInOp.MAX)).toList();
            all.forEach(result -> assertThat(Await.result(result, DEADLINE).length()).isEqualTo(bytes));
            ms[run] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(ms);
        return ms[ms.length / 2];
    }
}
