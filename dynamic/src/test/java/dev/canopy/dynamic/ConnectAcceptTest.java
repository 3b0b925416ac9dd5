package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.Message;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Two separately joined jobs (3 server processes at alpha and beta, 2 client processes at gamma and delta, real
 * embedded ZooKeeper, TCP on 127.0.0.1) connect by service name; point-to-point between every pair of the two
 * groups, both ways.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConnectAcceptTest {

    @AutoClose
    private final ConnectedJobs connected = ConnectedJobs.start(new int[] {0, 1, 3}, new int[] {6, 9}, InterPhase.TOPOLOGY,
            "ocean");
    private final TwoJobs jobs = connected.jobs;
    private final TwoJobs.Pair inter = connected.inter;

    @Test
    void bothSidesSeeBothGroups() {
        for (InterCommunicator server : inter.server()) {
            assertThat(server.size()).isEqualTo(3);
            assertThat(server.remoteSize()).isEqualTo(2);
            for (int r = 0; r < 2; r++) {
                assertThat(server.remoteMember(r).coordinates()).isEqualTo(jobs.client.get(r).node().coordinates());
            }
        }
        for (InterCommunicator client : inter.client()) {
            assertThat(client.size()).isEqualTo(2);
            assertThat(client.remoteSize()).isEqualTo(3);
            for (int r = 0; r < 3; r++) {
                assertThat(client.remoteMember(r).coordinates()).isEqualTo(jobs.server.get(r).node().coordinates());
            }
        }
        assertThat(inter.server().stream().map(InterCommunicator::rank)).containsExactly(0, 1, 2);
        assertThat(inter.client().stream().map(InterCommunicator::rank)).containsExactly(0, 1);
    }

    @Test
    void everyPairExchangesMessagesBothWays() {
        List<Future<?>> all = new ArrayList<>();
        List<Future<Message>> atClients = new ArrayList<>();
        List<Future<Message>> atServers = new ArrayList<>();
        for (InterCommunicator server : inter.server()) {
            for (int c = 0; c < 2; c++) {
                all.add(server.send(c, 7, Buffer.buffer("s" + server.rank() + "->c" + c)));
                atServers.add(server.receive(c, 8));
            }
        }
        for (InterCommunicator client : inter.client()) {
            for (int s = 0; s < 3; s++) {
                atClients.add(client.receive(s, 7));
                all.add(client.send(s, 8, Buffer.buffer("c" + client.rank() + "->s" + s)));
            }
        }
        all.forEach(Await::result);
        for (int i = 0; i < atClients.size(); i++) {
            Message message = Await.result(atClients.get(i));
            int client = i / 3;
            int server = i % 3;
            assertThat(message.source()).isEqualTo(server);
            assertThat(message.payload().toString()).isEqualTo("s" + server + "->c" + client);
        }
        for (int i = 0; i < atServers.size(); i++) {
            Message message = Await.result(atServers.get(i));
            assertThat(message.source()).isEqualTo(i % 2);
            assertThat(message.payload().toString()).isEqualTo("c" + (i % 2) + "->s" + (i / 2));
        }
    }

    @Test
    void anySourceNamesTheRemoteRank() {
        Future<Message> received = inter.client().get(1).receive(Communicator.ANY_SOURCE, 9);
        Await.result(inter.server().get(2).send(1, 9, Buffer.buffer("hi")));
        assertThat(Await.result(received).source()).isEqualTo(2);
    }

    @Test
    void theBlockingViewRunsMpiStyleOnPlainThreads() throws Exception {
        List<CompletableFuture<int[]>> results = new ArrayList<>();
        for (InterCommunicator member : inter.all()) {
            BlockingInterCommunicator<int[]> blocking = member.blocking(ArrayType.INTS);
            boolean server = inter.server().contains(member);
            results.add(CompletableFuture.supplyAsync(() -> {
                int[] sum = blocking.allreduce(new int[] {server ? 1 : 10, blocking.rank()}, BuiltInOp.SUM);
                int[] root = blocking.bcast(server && blocking.rank() == 0 ? new int[] {42} : null,
                        server ? (blocking.rank() == 0 ? InterCommunicator.ROOT : InterCommunicator.PROC_NULL) : 0);
                blocking.barrier();
                return new int[] {sum[0], sum[1], root.length == 0 ? -1 : root[0]};
            }));
        }
        for (int i = 0; i < results.size(); i++) {
            int[] got = results.get(i).get(60, TimeUnit.SECONDS);
            if (i < 3) {
                assertThat(got).containsExactly(20, 1, i == 0 ? 42 : -1);   // the clients' values; the root keeps its data
            } else {
                assertThat(got).containsExactly(3, 3, 42);                   // the servers' values; the root's data
            }
        }
    }

    @Test
    void theTopologyAwarePhaseCrossesBetweenTheNearestSites() {
        // beta (server rank 2 is its lowest) and gamma (client rank 0) are 4 ms apart, every other pair 20 ms or more:
        // without WAN emulation everything is loopback, so this only checks the choice is made the same everywhere.
        assertThat(inter.server().stream().map(InterCommunicator::leader).distinct()).hasSize(1);
        assertThat(inter.client().stream().map(InterCommunicator::leader).distinct()).hasSize(1);
    }
}
