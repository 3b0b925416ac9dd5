package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs on different hosts (loopback aliases: the server job's processes on 127.0.0.2, the client job's on
 * 127.0.0.3, real sockets, real embedded ZooKeeper): with no host option, each inter-communicator transport binds
 * and advertises its own job transport's address, for connect/accept and for join; an explicit
 * {@link DynamicOptions#withHost} wins; {@code CANOPY_HOST} reaches the options through {@code fromEnvironment}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class InterCommunicatorHostTest {

    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String SERVER_HOST = "127.0.0.2";
    private static final String CLIENT_HOST = "127.0.0.3";
    private static final int TAG = 3;

    private TwoJobs jobs;
    private final List<DynamicProcesses> opened = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();

    @BeforeAll
    void start() {
        jobs = TwoJobs.start(TwoJobs.fourSites(), new int[] {0, 3}, new int[] {6, 9},
                index -> index < 6 ? SERVER_HOST : CLIENT_HOST);
    }

    @AfterAll
    void close() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        opened.forEach(DynamicProcesses::close);
        if (jobs != null) {
            jobs.close();
        }
    }

    @Test
    void withoutAHostOptionEachGroupAdvertisesItsJobTransportsAddress() {
        TwoJobs.Pair inter = jobs.connect("hosts");
        try {
            for (InterCommunicator server : inter.server()) {
                for (int r = 0; r < server.remoteSize(); r++) {
                    assertThat(server.remoteMember(r).address().host()).isEqualTo(CLIENT_HOST);
                }
            }
            for (InterCommunicator client : inter.client()) {
                for (int r = 0; r < client.remoteSize(); r++) {
                    assertThat(client.remoteMember(r).address().host()).isEqualTo(SERVER_HOST);
                }
            }
            exchange(inter.server().get(1), inter.client().get(1), "across hosts");
        } finally {
            inter.disconnect();
        }
    }

    @Test
    void anExplicitHostWinsOverTheJobTransports() {
        TwoJobs.Pair inter = jobs.connect("explicit", process -> dynamic(process, jobs.server.contains(process)
                ? jobs.options(process.index(), InterPhase.FLAT).withHost("127.0.0.4")
                : jobs.options(process.index(), InterPhase.FLAT)));
        try {
            for (InterCommunicator client : inter.client()) {
                assertThat(client.remoteMember(0).address().host()).isEqualTo("127.0.0.4");
                assertThat(client.remoteMember(1).address().host()).isEqualTo("127.0.0.4");
            }
            assertThat(inter.server().get(0).remoteMember(0).address().host()).isEqualTo(CLIENT_HOST);
            exchange(inter.server().get(0), inter.client().get(0), "on an explicit host");
        } finally {
            inter.disconnect();
        }
    }

    @Test
    void joinBindsEachEndWhereItsJobTransportIs() throws IOException {
        Socket[] pair = connectedPair();
        TwoJobs.Process serverProcess = jobs.server.get(1);
        TwoJobs.Process clientProcess = jobs.client.get(0);
        Future<InterCommunicator> left = dynamic(serverProcess, jobs.options(serverProcess.index(), InterPhase.FLAT))
                .join(pair[0]);
        Future<InterCommunicator> right = dynamic(clientProcess, jobs.options(clientProcess.index(), InterPhase.FLAT))
                .join(pair[1]);
        InterCommunicator serverEnd = Await.result(left, BOUND);
        InterCommunicator clientEnd = Await.result(right, BOUND);
        try {
            assertThat(serverEnd.remoteMember(0).address().host()).isEqualTo(CLIENT_HOST);
            assertThat(clientEnd.remoteMember(0).address().host()).isEqualTo(SERVER_HOST);
            exchange(serverEnd, clientEnd, "over a join");
        } finally {
            Await.result(Future.all(serverEnd.disconnect(), clientEnd.disconnect()), BOUND);
        }
    }

    @Test
    void theJobsHostReachesTheOptionsFromTheEnvironment(@TempDir Path directory) throws IOException {
        Path secret = directory.resolve("names.key");
        JobSecret.generate().writeTo(secret);
        Map<String, String> environment = Map.of(JoinOptions.ENV_ZOOKEEPER, jobs.zooKeeper.connectString(),
                JoinOptions.ENV_SECRET_FILE, secret.toString(), JoinOptions.ENV_HOST, " " + CLIENT_HOST + " ");
        assertThat(DynamicOptions.fromEnvironment(environment).host())
                .contains(new DynamicOptions.Host(CLIENT_HOST, CLIENT_HOST));
        Map<String, String> noHost = Map.of(JoinOptions.ENV_ZOOKEEPER, jobs.zooKeeper.connectString(),
                JoinOptions.ENV_SECRET_FILE, secret.toString());
        assertThat(DynamicOptions.fromEnvironment(noHost).host()).isEmpty();
    }

    /** A message each way, each received exactly as sent. */
    private static void exchange(InterCommunicator server, InterCommunicator client, String when) {
        Await.result(client.send(server.rank(), TAG, Buffer.buffer("to the server " + when)), BOUND);
        assertThat(Await.result(server.receive(Communicator.ANY_SOURCE, TAG), BOUND).payload())
                .hasToString("to the server " + when);
        Await.result(server.send(client.rank(), TAG, Buffer.buffer("to the client " + when)), BOUND);
        assertThat(Await.result(client.receive(server.rank(), TAG), BOUND).payload()).hasToString("to the client " + when);
    }

    private DynamicProcesses dynamic(TwoJobs.Process process, DynamicOptions options) {
        DynamicProcesses dynamic = DynamicProcesses.over(process.collectives(), jobs.grid, options);
        synchronized (opened) {
            opened.add(dynamic);
        }
        return dynamic;
    }

    /** Two ends of one TCP connection on 127.0.0.1 (the socket a user already has; where it runs does not matter). */
    private Socket[] connectedPair() throws IOException {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Socket dialled = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            Socket accepted = listener.accept();
            sockets.add(dialled);
            sockets.add(accepted);
            return new Socket[] {dialled, accepted};
        }
    }
}
