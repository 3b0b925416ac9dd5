package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every inter-communicator collective between two separately joined jobs (3 server processes at alpha and beta,
 * 2 client processes at gamma and delta) against a sequential reference computed here, rooted ones from either
 * group, for small messages and for messages beyond the eager limit. Each inter phase runs it
 * ({@link InterCollectivesTopologyTest}, {@link InterCollectivesFlatTest}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
abstract class InterCollectivesContract {

    private static final ArrayType<int[]> INTS = ArrayType.INTS;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @AutoClose
    private ConnectedJobs connected;
    private TwoJobs.Pair inter;

    abstract InterPhase phase();

    @BeforeAll
    void connect() {
        connected = ConnectedJobs.start(new int[] {0, 1, 3}, new int[] {6, 9}, phase(), "contract-" + phase());
        inter = connected.inter;
        assertThat(inter.server().get(0).interPhase()).isEqualTo(phase());
    }

    /** Process (server or client, rank)'s contribution of {@code count} ints: distinct everywhere. */
    private static int[] data(boolean server, int rank, int count) {
        int base = (server ? 1_000_000 : 2_000_000) + rank * 10_000;
        return IntStream.range(0, count).map(i -> base + i).toArray();
    }

    private List<InterCommunicator> group(boolean server) {
        return server ? inter.server() : inter.client();
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 300_000})
    void bcastFromEitherGroup(int count) {
        for (boolean rootInServer : new boolean[] {true, false}) {
            int root = rootInServer ? 1 : 0;
            int[] expected = data(rootInServer, root, count);
            List<Future<Buffer>> results = new ArrayList<>();
            for (InterCommunicator member : group(rootInServer)) {
                int arg = member.rank() == root ? InterCommunicator.ROOT : InterCommunicator.PROC_NULL;
                results.add(member.bcast(member.rank() == root ? INTS.encode(expected) : null, arg));
            }
            List<Future<Buffer>> received = new ArrayList<>();
            for (InterCommunicator member : group(!rootInServer)) {
                received.add(member.bcast(null, root));
            }
            results.forEach(r -> Await.result(r, DEADLINE));
            received.forEach(r -> assertThat(INTS.decode(Await.result(r, DEADLINE))).isEqualTo(expected));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 200_000})
    void scatterFromEitherGroup(int count) {
        for (boolean rootInServer : new boolean[] {true, false}) {
            int root = rootInServer ? 2 : 1;
            List<InterCommunicator> receivers = group(!rootInServer);
            int[] all = data(rootInServer, root, count * receivers.size());
            List<Future<Buffer>> rooted = new ArrayList<>();
            for (InterCommunicator member : group(rootInServer)) {
                rooted.add(member.rank() == root ? member.scatter(INTS.encode(all), INTS.bytes(count), InterCommunicator.ROOT)
                        : member.scatter(null, INTS.bytes(count), InterCommunicator.PROC_NULL));
            }
            List<Future<Buffer>> blocks = receivers.stream().map(m -> m.scatter(null, INTS.bytes(count), root)).toList();
            rooted.forEach(r -> Await.result(r, DEADLINE));
            for (int j = 0; j < receivers.size(); j++) {
                int[] block = Arrays.copyOfRange(all, j * count, (j + 1) * count);
                assertThat(INTS.decode(Await.result(blocks.get(j), DEADLINE))).isEqualTo(block);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 100_000})
    void gatherToEitherGroup(int count) {
        for (boolean rootInServer : new boolean[] {true, false}) {
            int root = rootInServer ? 0 : 1;
            List<InterCommunicator> senders = group(!rootInServer);
            List<Future<Optional<Buffer>>> rooted = new ArrayList<>();
            for (InterCommunicator member : group(rootInServer)) {
                rooted.add(member.gather(Buffer.buffer(), member.rank() == root ? InterCommunicator.ROOT
                        : InterCommunicator.PROC_NULL));
            }
            List<Future<Optional<Buffer>>> sent = senders.stream()
                    .map(m -> m.gather(INTS.encode(data(!rootInServer, m.rank(), count)), root)).toList();
            sent.forEach(s -> assertThat(Await.result(s, DEADLINE)).isEmpty());
            int[] expected = senders.stream().flatMapToInt(m -> IntStream.of(data(!rootInServer, m.rank(), count))).toArray();
            for (int r = 0; r < rooted.size(); r++) {
                Optional<Buffer> got = Await.result(rooted.get(r), DEADLINE);
                if (r == root) {
                    assertThat(INTS.decode(got.orElseThrow())).isEqualTo(expected);
                } else {
                    assertThat(got).isEmpty();
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {5, 100_000})
    void reduceToEitherGroup(int count) {
        for (boolean rootInServer : new boolean[] {true, false}) {
            int root = rootInServer ? 2 : 0;
            List<InterCommunicator> senders = group(!rootInServer);
            List<Future<Optional<Buffer>>> rooted = new ArrayList<>();
            for (InterCommunicator member : group(rootInServer)) {
                rooted.add(member.reduce(Buffer.buffer(), ElementType.INT, BuiltInOp.SUM,
                        member.rank() == root ? InterCommunicator.ROOT : InterCommunicator.PROC_NULL));
            }
            List<Future<Optional<Buffer>>> sent = senders.stream().map(m -> m.reduce(
                    INTS.encode(data(!rootInServer, m.rank(), count)), ElementType.INT, BuiltInOp.SUM, root)).toList();
            sent.forEach(s -> assertThat(Await.result(s, DEADLINE)).isEmpty());
            assertThat(INTS.decode(Await.result(rooted.get(root), DEADLINE).orElseThrow()))
                    .isEqualTo(sum(!rootInServer, senders.size(), count));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {6, 100_000})
    void allreduceGivesEachGroupTheOthersReduction(int count) {
        List<Future<Buffer>> servers = inter.server().stream()
                .map(m -> m.allreduce(INTS.encode(data(true, m.rank(), count)), ElementType.INT, BuiltInOp.SUM)).toList();
        List<Future<Buffer>> clients = inter.client().stream()
                .map(m -> m.allreduce(INTS.encode(data(false, m.rank(), count)), ElementType.INT, BuiltInOp.SUM)).toList();
        servers.forEach(r -> assertThat(INTS.decode(Await.result(r, DEADLINE))).isEqualTo(sum(false, 2, count)));
        clients.forEach(r -> assertThat(INTS.decode(Await.result(r, DEADLINE))).isEqualTo(sum(true, 3, count)));
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 100_000})
    void allgatherGivesEachGroupTheOthersData(int count) {
        BiFunction<Boolean, Integer, int[]> concatenated = (server, size) -> IntStream.range(0, size)
                .flatMap(r -> IntStream.of(data(server, r, count))).toArray();
        List<Future<Buffer>> servers = inter.server().stream().map(m -> m.allgather(INTS.encode(data(true, m.rank(), count)))).toList();
        List<Future<Buffer>> clients = inter.client().stream().map(m -> m.allgather(INTS.encode(data(false, m.rank(), count)))).toList();
        servers.forEach(r -> assertThat(INTS.decode(Await.result(r, DEADLINE))).isEqualTo(concatenated.apply(false, 2)));
        clients.forEach(r -> assertThat(INTS.decode(Await.result(r, DEADLINE))).isEqualTo(concatenated.apply(true, 3)));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 100_000})
    void alltoallExchangesEveryPairsBlock(int count) {
        // Block j of (side, rank i) is data(side, i, ...) shifted by j, so each pair's block is distinct.
        List<Future<Buffer>> servers = inter.server().stream().map(m -> m.alltoall(INTS.encode(blocks(true, m.rank(), 2, count)),
                INTS.bytes(count))).toList();
        List<Future<Buffer>> clients = inter.client().stream().map(m -> m.alltoall(INTS.encode(blocks(false, m.rank(), 3, count)),
                INTS.bytes(count))).toList();
        for (int i = 0; i < 3; i++) {
            int server = i;
            int[] expected = IntStream.range(0, 2).flatMap(j -> IntStream.of(block(false, j, server, count))).toArray();
            assertThat(INTS.decode(Await.result(servers.get(i), DEADLINE))).isEqualTo(expected);
        }
        for (int j = 0; j < 2; j++) {
            int client = j;
            int[] expected = IntStream.range(0, 3).flatMap(i -> IntStream.of(block(true, i, client, count))).toArray();
            assertThat(INTS.decode(Await.result(clients.get(j), DEADLINE))).isEqualTo(expected);
        }
    }

    @Test
    void barrierCompletesEverywhereAndOperationsStayInStep() {
        List<Future<Void>> all = inter.all().stream().map(InterCommunicator::barrier).toList();
        all.forEach(b -> Await.result(b, DEADLINE));
        // several collectives in flight at once, large and small alternating (their phases become ready out of
        // order), each get their own data
        List<List<Future<Buffer>>> inFlight = new ArrayList<>();
        for (int op = 0; op < 6; op++) {
            int bytes = op % 2 == 0 ? 300_000 : 1;
            byte value = (byte) (op + 1);
            inFlight.add(inter.all().stream().map(m -> m.allgather(Buffer.buffer(filled(bytes, value)))).toList());
        }
        for (int op = 0; op < inFlight.size(); op++) {
            for (int i = 0; i < inter.all().size(); i++) {
                Buffer got = Await.result(inFlight.get(op).get(i), DEADLINE);
                int remote = i < 3 ? 2 : 3;
                assertThat(got.length()).isEqualTo(remote * (op % 2 == 0 ? 300_000 : 1));
                assertThat(got.getByte(0)).isEqualTo((byte) (op + 1));
                assertThat(got.getByte(got.length() - 1)).isEqualTo((byte) (op + 1));
            }
        }
    }

    private static byte[] filled(int bytes, byte value) {
        byte[] data = new byte[bytes];
        Arrays.fill(data, value);
        return data;
    }

    private static int[] blocks(boolean server, int rank, int remoteSize, int count) {
        return IntStream.range(0, remoteSize).flatMap(j -> IntStream.of(block(server, rank, j, count))).toArray();
    }

    private static int[] block(boolean server, int rank, int to, int count) {
        return IntStream.of(data(server, rank, count)).map(v -> v + to * 100).toArray();
    }

    private static int[] sum(boolean server, int size, int count) {
        int[] total = new int[count];
        for (int r = 0; r < size; r++) {
            int[] part = data(server, r, count);
            for (int i = 0; i < count; i++) {
                total[i] += part[i];
            }
        }
        return total;
    }
}
