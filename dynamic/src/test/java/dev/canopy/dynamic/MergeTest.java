package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.node.Member;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * merge of an inter-communicator between two separately joined jobs: the order the flags ask for, and the merged
 * communicator runs every kind of collective (rooted, all-to-all, reductions) and frees.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class MergeTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @AutoClose
    private final ConnectedJobs connected = ConnectedJobs.start(new int[] {0, 3, 4}, new int[] {7, 10}, InterPhase.TOPOLOGY,
            "merge");
    private final TwoJobs jobs = connected.jobs;
    private final TwoJobs.Pair inter = connected.inter;

    @Test
    void lowGroupFirstThenTheOtherAndEveryCollectiveRunsOnTheResult() {
        List<InterCommunicator.Merged> merged = merge(MergeOrder.HIGH, MergeOrder.LOW);
        // clients (LOW) first, then servers
        assertThat(merged.stream().map(m -> m.communicator().rank())).containsExactly(2, 3, 4, 0, 1);
        assertThat(merged).allSatisfy(m -> assertThat(m.communicator().size()).isEqualTo(5));
        List<Member> order = merged.get(0).communicator().members();
        assertThat(order.get(0).coordinates()).isEqualTo(jobs.client.get(0).node().coordinates());
        assertThat(order.get(4).coordinates()).isEqualTo(jobs.server.get(2).node().coordinates());

        List<Future<Buffer>> sums = merged.stream().map(m -> m.collectives().allreduce(
                ArrayType.INTS.encode(new int[] {m.communicator().rank(), 1}), ElementType.INT, BuiltInOp.SUM)).toList();
        sums.forEach(sum -> assertThat(ArrayType.INTS.decode(Await.result(sum, DEADLINE))).containsExactly(10, 5));
        List<Future<Buffer>> bcasts = merged.stream().map(m -> m.collectives().bcast(
                m.communicator().rank() == 3 ? Buffer.buffer("from 3") : null, 3)).toList();
        bcasts.forEach(b -> assertThat(Await.result(b, DEADLINE).toString()).isEqualTo("from 3"));
        List<Future<Optional<Buffer>>> gathers = merged.stream().map(m -> m.collectives().gather(
                Buffer.buffer(new byte[] {(byte) m.communicator().rank()}), 4)).toList();
        for (int i = 0; i < merged.size(); i++) {
            Optional<Buffer> gathered = Await.result(gathers.get(i), DEADLINE);
            if (merged.get(i).communicator().rank() == 4) {
                assertThat(gathered.orElseThrow().getBytes()).containsExactly(0, 1, 2, 3, 4);
            } else {
                assertThat(gathered).isEmpty();
            }
        }
        List<Future<Buffer>> exchanged = merged.stream().map(m -> {
            byte[] blocks = new byte[5];
            for (int to = 0; to < 5; to++) {
                blocks[to] = (byte) (m.communicator().rank() * 10 + to);
            }
            return m.collectives().alltoall(Buffer.buffer(blocks), 1);
        }).toList();
        int rankOfFirst = merged.get(0).communicator().rank();
        assertThat(Await.result(exchanged.get(0), DEADLINE).getBytes())
                .containsExactly(0 + rankOfFirst, 10 + rankOfFirst, 20 + rankOfFirst, 30 + rankOfFirst, 40 + rankOfFirst);
        merged.stream().map(m -> m.communicator().free()).toList().forEach(f -> Await.result(f, DEADLINE));
    }

    @Test
    void equalFlagsPutTheAcceptingGroupFirst() {
        List<InterCommunicator.Merged> merged = merge(MergeOrder.LOW, MergeOrder.LOW);
        assertThat(merged.stream().map(m -> m.communicator().rank())).containsExactly(0, 1, 2, 3, 4);
        List<Future<Void>> barriers = merged.stream().map(m -> m.collectives().barrier()).toList();
        barriers.forEach(b -> Await.result(b, DEADLINE));
        merged.stream().map(m -> m.communicator().free()).toList().forEach(f -> Await.result(f, DEADLINE));
    }

    /** Merge latency beside an allgather of the same five members (logged, not asserted: timings are for benchmarks). */
    @Test
    void mergeLatencyIsLoggedBesideAnAllgather() {
        double[] mergeMs = new double[5];
        double[] allgatherMs = new double[5];
        for (int run = 0; run < mergeMs.length; run++) {
            long start = System.nanoTime();
            List<InterCommunicator.Merged> merged = merge(MergeOrder.LOW, MergeOrder.HIGH);
            mergeMs[run] = (System.nanoTime() - start) / 1e6;
            start = System.nanoTime();
            merged.stream().map(m -> m.collectives().allgather(Buffer.buffer(new byte[8]))).toList()
                    .forEach(f -> Await.result(f, DEADLINE));
            allgatherMs[run] = (System.nanoTime() - start) / 1e6;
            merged.stream().map(m -> m.communicator().free()).toList().forEach(f -> Await.result(f, DEADLINE));
        }
        Arrays.sort(mergeMs);
        Arrays.sort(allgatherMs);
        LoggerFactory.getLogger(MergeTest.class).info("merge of 3 + 2 members: median {} ms; an 8-byte allgather on the"
                + " merged communicator: median {} ms (5 runs, loopback)", String.format("%.1f", mergeMs[2]),
                String.format("%.1f", allgatherMs[2]));
    }

    /** Servers pass {@code servers}, clients {@code clients}; the merged communicators by server rank, then client rank. */
    private List<InterCommunicator.Merged> merge(MergeOrder servers, MergeOrder clients) {
        List<Future<InterCommunicator.Merged>> merging = new ArrayList<>();
        inter.server().forEach(s -> merging.add(s.merge(servers)));
        inter.client().forEach(c -> merging.add(c.merge(clients)));
        return merging.stream().map(f -> Await.result(f, DEADLINE)).toList();
    }
}
