package dev.canopy.dynamic.spawn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.core.testing.Await;
import dev.canopy.core.testing.TestCertificates;
import dev.canopy.core.testing.TestPki;
import dev.canopy.dynamic.InterCommunicator;
import dev.canopy.processes.Placement;
import dev.canopy.processes.SpawnCommand;
import dev.canopy.processes.SpawnFailedException;
import io.vertx.core.Future;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spawn and spawnMultiple from a parent job of this JVM: the children are real JVMs started by local agents at
 * the sites placement chose, join their own job, connect back, and take part in inter-communicator collectives.
 */
class DynamicSpawnTest {

    private static final Duration BOUND = Duration.ofSeconds(240);

    private ParentJob job;

    @AfterEach
    void stop() {
        if (job != null) {
            String pool = job.pool;
            job.close();
            Await.until(() -> ChildCount.of(pool) == 0, () -> "children of " + pool + " outlived the test");
        }
    }

    private static List<InterCommunicator> results(List<Future<InterCommunicator>> futures) {
        return futures.stream().map(future -> Await.result(future, BOUND)).toList();
    }

    /** Every parent's allreduce over the inter-communicator (1 each), returning what the parents saw. */
    private static List<Long> parentsAllreduce(List<InterCommunicator> communicators) {
        List<Long> seen = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (InterCommunicator communicator : communicators) {
            Thread thread = new Thread(() -> {
                long[] sum = communicator.blocking(ArrayType.LONGS).allreduce(new long[] {1}, BuiltInOp.SUM);
                synchronized (seen) {
                    seen.add(sum[0]);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            try {
                thread.join(BOUND.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return seen;
    }

    @Test
    void spawnedChildrenAtARemoteSiteJoinTheParentsInterCommunicator() {
        job = new ParentJob(new int[] {0, 4}, 0);

        List<InterCommunicator> children = results(job.spawn(List.of(new SpawnCommand(Children.Ten.class.getName(), List.of(),
                3, Placement.atSites("kisti-b")))));

        assertThat(children).allSatisfy(inter -> {
            assertThat(inter.size()).isEqualTo(2);
            assertThat(inter.remoteSize()).isEqualTo(3);
            assertThat(inter.remoteMember(0).coordinates().site()).isEqualTo("kisti-b");
        });
        assertThat(parentsAllreduce(children)).containsExactly(30L, 30L);
        children.forEach(inter -> Await.result(inter.disconnect(), BOUND));
    }

    @Test
    void theChildrenOfParentsWithTlsConnectBackOverTlsAndRunTheirOwnJobOverTls(@TempDir Path directory) {
        TestPki ca = TestPki.authority("spawn CA");
        TestPki.Files3 files = ca.write(directory, "node", ca.issue("canopy-node"));
        TlsSettings tls = TlsSettings.load(files.certificate(), files.key(), files.ca());
        job = new ParentJob(new int[] {0}, 0, Optional.of(tls));

        // Without the parents' TLS files the children's side would fail the pairing naming --tls.
        List<InterCommunicator> children = results(job.spawn(List.of(new SpawnCommand(
                Children.ReportsItsJobAddress.class.getName(), List.of(), 1, Placement.atSites("kisti-b")))));

        // The child's own job transport speaks TLS 1.3 with the parents' files: a TLS client with a certificate of
        // the jobs' CA completes its handshake there (a plaintext transport would never answer one).
        String[] address = Await.result(children.get(0).receive(0, Children.ReportsItsJobAddress.TAG), BOUND).payload()
                .toString().split(":");
        NetClient client = job.vertx.createNetClient(new NetClientOptions().setSsl(true)
                .setEnabledSecureTransportProtocols(Set.of(TlsSettings.PROTOCOL)).setHostnameVerificationAlgorithm("")
                .setKeyCertOptions(new PemKeyCertOptions().setCertPath(files.certificate().toString())
                        .setKeyPath(files.key().toString()))
                .setTrustOptions(new PemTrustOptions().addCertPath(files.ca().toString())));
        try {
            NetSocket socket = Await.result(client.connect(Integer.parseInt(address[1]), address[0]), BOUND);
            assertThat(socket.isSsl()).isTrue();
            Await.result(socket.close(), BOUND);
        } finally {
            Await.result(client.close(), BOUND);
        }

        assertThat(parentsAllreduce(children)).containsExactly(10L);
        children.forEach(inter -> Await.result(inter.disconnect(), BOUND));
    }

    @Test
    void theChildrenOfParentsOnATlsOnlyZooKeeperJoinAndConnectBackOverZooKeeperTls(@TempDir Path directory) {
        ZooKeeperTls zooKeeperTls = ZooKeeperTls.fromDirectory(TestCertificates.writePemDirectory(directory,
                TestCertificates.authority("canopy-test-ca", Duration.ofDays(2))));
        job = new ParentJob(new int[] {0, 4}, 0, Optional.empty(), Optional.of(zooKeeperTls));

        // The ensemble has no plaintext port: without the parents' --zk-tls directory the children could not even
        // join their job, and every parent's spawn would fail.
        List<InterCommunicator> children = results(job.spawn(List.of(new SpawnCommand(Children.Ten.class.getName(), List.of(),
                2, Placement.atSites("kisti-b")))));

        assertThat(children).allSatisfy(inter -> assertThat(inter.remoteSize()).isEqualTo(2));
        assertThat(parentsAllreduce(children)).containsExactly(20L, 20L);
        children.forEach(inter -> Await.result(inter.disconnect(), BOUND));
    }

    @Test
    void spawnMultipleStartsEveryCommandAsOneChildGroup() {
        job = new ParentJob(new int[] {0, 8}, 1);
        Await.until(BOUND, () -> job.agents.warm(1), () -> "the local agents' warm JVMs are not ready");

        List<InterCommunicator> children = results(job.spawn(List.of(
                new SpawnCommand(Children.Ten.class.getName(), List.of(), 2, Placement.atSites("kut-a")),
                new SpawnCommand(Children.Hundred.class.getName(), List.of(), 1, Placement.atSites("kisti-a")))));

        assertThat(children).allSatisfy(inter -> assertThat(inter.remoteSize()).isEqualTo(3));
        assertThat(parentsAllreduce(children)).containsExactly(120L, 120L);
        children.forEach(inter -> Await.result(inter.disconnect(), BOUND));
    }

    @Test
    void anUnknownProgramFailsEveryParentAndLeavesNoProcess() {
        job = new ParentJob(new int[] {0, 4}, 0);
        assertThat(job.children()).isZero();

        List<Future<InterCommunicator>> spawns = job.spawn(List.of(new SpawnCommand("demo.NoSuchWorker", List.of(), 2,
                Placement.automatic())));

        for (Future<InterCommunicator> spawn : spawns) {
            assertThat(Await.failure(spawn, BOUND)).isInstanceOf(SpawnFailedException.class)
                    .hasMessageContaining("program class demo.NoSuchWorker is not on the classpath");
        }
        Await.until(() -> job.children() == 0, () -> "children left after the failed spawn: " + job.children());
    }

    @Test
    void disconnectWorksAfterAChildDied() {
        job = new ParentJob(new int[] {0, 4}, 0);

        List<InterCommunicator> children = results(job.spawn(List.of(new SpawnCommand(
                Children.DieAfterConnecting.class.getName(), List.of(), 2, Placement.atSites("ajou-b")))));
        Await.until(BOUND, () -> job.children() == 0, () -> "the children did not die");

        children.forEach(inter -> Await.result(inter.disconnect(), BOUND));
    }
}
