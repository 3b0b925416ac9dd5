package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The name service and the failures of accept and connect, against a real embedded ZooKeeper: names never
 * published, closed ports, nobody on the other side (the timeout), another secret, a forged record, bad input.
 * Every failure is a failed future with a message naming the place and the fix, in bounded time.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NameServiceTest {

    private static final Duration SHORT = Duration.ofSeconds(2);
    /** The short timeout plus what a loaded machine adds. */
    private static final Duration BOUND = Duration.ofSeconds(20);

    private TwoJobs jobs;
    private DynamicProcesses server;
    private DynamicProcesses client;

    @BeforeAll
    void start() {
        jobs = TwoJobs.start(TwoJobs.fourSites(), new int[] {0}, new int[] {6}, false, InterPhase.FLAT);
        server = shortTimeout(jobs.server.get(0));
        client = shortTimeout(jobs.client.get(0));
    }

    private DynamicProcesses shortTimeout(TwoJobs.Process process) {
        return DynamicProcesses.over(process.collectives(), jobs.grid,
                jobs.options(process.index(), InterPhase.FLAT).withTimeout(SHORT));
    }

    @AfterAll
    void stop() {
        for (DynamicProcesses dynamic : new DynamicProcesses[] {server, client}) {
            if (dynamic != null) {
                dynamic.close();
            }
        }
        if (jobs != null) {
            jobs.close();
        }
    }

    @Test
    void aNameNeverPublishedIsAClearError() {
        assertThat(Await.failure(client.lookupName("nobody-here")))
                .hasMessageContaining("no service named 'nobody-here' is published in namespace " + jobs.namespace);
    }

    @Test
    void publishLookupUnpublish() {
        PortName port = Await.result(server.openPort());
        Await.result(server.publishName("weather", port));
        assertThat(Await.result(client.lookupName("weather"))).isEqualTo(port);
        assertThat(Await.failure(server.publishName("weather", port))).hasMessageContaining("already published");
        Await.result(server.unpublishName("weather"));
        assertThat(Await.failure(client.lookupName("weather"))).hasMessageContaining("no service named 'weather'");
        assertThat(Await.failure(server.unpublishName("weather"))).hasMessageContaining("is not published");
        Await.result(server.closePort(port));
    }

    @Test
    void connectingToAClosedPortFails() {
        PortName port = Await.result(server.openPort());
        Await.result(server.closePort(port));
        assertThat(Await.failure(client.connect(port, 0), BOUND)).hasMessageContaining("is not open");
        assertThat(Await.failure(server.closePort(port))).hasMessageContaining("is not open");
        assertThat(Await.failure(server.accept(port, 0), BOUND)).hasMessageContaining("is not open");
    }

    @Test
    void acceptWithNobodyConnectingTimesOut() {
        PortName port = Await.result(server.openPort());
        long start = System.nanoTime();
        Throwable failure = Await.failure(server.accept(port, 0), BOUND);
        assertThat(failure).isInstanceOf(DynamicTimeoutException.class).hasMessageContaining("no connect arrived at port");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(SHORT);
        Await.result(server.closePort(port));
    }

    @Test
    void connectWithNobodyAcceptingTimesOut() {
        PortName port = Await.result(server.openPort());
        assertThat(Await.failure(client.connect(port, 0), BOUND)).isInstanceOf(DynamicTimeoutException.class)
                .hasMessageContaining("nobody accepted on port");
        Await.result(server.closePort(port));
    }

    @Test
    void closingThePortFailsAWaitingAccept() {
        PortName port = Await.result(server.openPort());
        DynamicProcesses patient = DynamicProcesses.over(jobs.server.get(0).collectives(), jobs.grid,
                jobs.options(0, InterPhase.FLAT).withTimeout(Duration.ofSeconds(60)));
        try {
            // the same name-service session as the port's: one NameService per DynamicProcesses
            Future<InterCommunicator> waiting = server.accept(port, 0);
            Await.result(server.closePort(port));
            assertThat(Await.failure(waiting, BOUND)).hasMessageContaining("is not open");
        } finally {
            patient.close();
        }
    }

    @Test
    void anotherSecretCannotUseTheNamespace() {
        DynamicOptions foreign = DynamicOptions.of(jobs.zooKeeper.connectString(), JobSecret.generate())
                .withNamespace(jobs.namespace);
        Throwable failure = Await.failure(NameService.open(jobs.vertx, foreign));
        assertThat(failure).hasMessageContaining("belongs to other ZooKeeper credentials")
                .hasMessageContaining("same --secret-file");
    }

    @Test
    void overABorrowedSessionClosingDeletesItsPortsAndNamesAndKeepsTheSession() {
        ZooKeeperSession borrowed = Await.result(ZooKeeperSession.open(jobs.vertx, jobs.zooKeeper.connectString(),
                Duration.ofSeconds(4), Duration.ofSeconds(10), Optional.of(ZooKeeperCredentials.of(jobs.namesSecret))));
        try {
            NameService service = Await.result(NameService.over(jobs.vertx, borrowed,
                    jobs.options(0, InterPhase.FLAT).withTimeout(SHORT)));
            PortName port = Await.result(service.openPort());
            Await.result(service.publishName("borrowed", port));
            assertThat(Await.result(client.lookupName("borrowed"))).isEqualTo(port);

            Await.result(service.closeAsync());

            assertThat(Await.failure(client.lookupName("borrowed"))).hasMessageContaining("no service named 'borrowed'");
            assertThat(Await.failure(client.connect(port, 0))).hasMessageContaining("not open");
            assertThat(borrowed.client().getZookeeperClient().isConnected()).isTrue();
        } finally {
            borrowed.close();
        }
    }

    @Test
    void aBorrowedSessionWithOtherCredentialsIsRefused() {
        ZooKeeperSession foreign = Await.result(ZooKeeperSession.open(jobs.vertx, jobs.zooKeeper.connectString(),
                Duration.ofSeconds(4), Duration.ofSeconds(10), Optional.of(ZooKeeperCredentials.of(JobSecret.generate()))));
        try {
            assertThat(Await.failure(NameService.over(jobs.vertx, foreign, jobs.options(0, InterPhase.FLAT))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("other credentials");
        } finally {
            foreign.close();
        }
    }

    @Test
    void aRecordNotSealedWithTheSecretIsRefused() throws Exception {
        Await.result(client.lookupName("x").otherwiseEmpty()); // the namespace exists
        CuratorFramework raw = ZooKeeperSession.builder(jobs.zooKeeper.connectString(), Duration.ofSeconds(4),
                Duration.ofSeconds(10), Optional.of(ZooKeeperCredentials.of(jobs.namesSecret))).build();
        raw.start();
        try {
            raw.blockUntilConnected(10, TimeUnit.SECONDS);
            String path = NameService.ROOT + "/" + jobs.namespace + "/services/forged";
            raw.create().withMode(CreateMode.EPHEMERAL).forPath(path,
                    "{\"body\":\"{\\\"service\\\":\\\"forged\\\",\\\"port\\\":\\\"canopy-port:x/p-00000000000000000000000000000000\\\"}\",\"mac\":\"00\"}"
                            .getBytes(StandardCharsets.UTF_8));
            Throwable failure = Await.failure(client.lookupName("forged"));
            assertThat(failure).isInstanceOf(MalformedZnodeException.class).hasMessageContaining(path)
                    .hasMessageContaining("not sealed with this job's secret");
            raw.setData().forPath(path, "not json".getBytes(StandardCharsets.UTF_8));
            assertThat(Await.failure(client.lookupName("forged"))).isInstanceOf(MalformedZnodeException.class);
        } finally {
            raw.close();
        }
    }

    @Test
    void aMemberThatCannotBindFailsBothGroupsAtOnceWhenTheConnectArrives() {
        // 192.0.2.1 (TEST-NET-1) is no address of this machine: the bind fails, nothing is sent anywhere. Members
        // bind once the roots have agreed the pairing's key, so the failure comes when a connect arrives.
        DynamicProcesses unbindable = DynamicProcesses.over(jobs.server.get(0).collectives(), jobs.grid,
                jobs.options(0, InterPhase.FLAT).withTimeout(Duration.ofSeconds(60)).withHost("192.0.2.1"));
        try {
            PortName port = Await.result(unbindable.openPort());
            long start = System.nanoTime();
            Future<InterCommunicator> accepting = unbindable.accept(port, 0);
            Future<InterCommunicator> connecting = jobs.client.get(0).dynamic().connect(port, 0);
            assertThat(Await.failure(accepting, BOUND)).hasMessageContaining("rank 0 could not start its inter-communicator transport");
            assertThat(Await.failure(connecting, BOUND)).hasMessageContaining("the other group's root withdrew");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        } finally {
            unbindable.close();
        }
    }

    @Test
    void badInputIsRefusedNamingTheFix() {
        assertThatThrownBy(() -> PortName.parse("tcp://127.0.0.1:5000")).hasMessageContaining("is not a port name");
        assertThatThrownBy(() -> PortName.parse("canopy-port:ns/../etc")).hasMessageContaining("is not a port name");
        assertThatThrownBy(() -> PortName.parse(null)).hasMessageContaining("is not a port name");
        assertThatThrownBy(() -> jobs.options(0, InterPhase.FLAT).withNamespace("a/b"))
                .hasMessageContaining("namespace 'a/b'");
        assertThatThrownBy(() -> jobs.options(0, InterPhase.FLAT).withTimeout(Duration.ZERO))
                .hasMessageContaining("must be positive");
        assertThat(Await.failure(server.publishName("bad/name", PortName.parse(
                "canopy-port:" + jobs.namespace + "/p-00000000000000000000000000000000")))).hasMessageContaining("service name");
        assertThat(Await.failure(server.accept(null, 0), BOUND)).hasMessageContaining("the root was given no port");
        assertThat(Await.failure(server.accept(null, 3))).hasMessageContaining("root 3 is not a rank of the group");
        assertThat(Await.failure(client.lookupName("x").compose(p -> client.closePort(PortName.parse(
                "canopy-port:elsewhere/p-00000000000000000000000000000000"))).recover(e -> client.closePort(PortName.parse(
                "canopy-port:elsewhere/p-00000000000000000000000000000000"))))).hasMessageContaining("withNamespace(elsewhere)");
    }
}
