package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A member of the remote group dies (SIGKILL of its JVM) after the inter-communicator exists: every survivor's
 * collective fails with a clear error in bounded time (well under the timeout: the reset connection reports it),
 * sends to the dead rank fail, and disconnect completes on every survivor. No process is left behind.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class PeerKilledTest {

    private static final Logger LOG = LoggerFactory.getLogger(PeerKilledTest.class);
    private static final Duration BOUND = Duration.ofSeconds(25);

    private TwoJobs jobs;
    private Process child;
    private Path secretFile;
    private Path namesSecretFile;

    @AfterEach
    void stop() throws IOException {
        if (child != null) {
            child.destroyForcibly();
        }
        if (jobs != null) {
            jobs.close();
        }
        if (namesSecretFile != null) {
            Files.deleteIfExists(namesSecretFile);
        }
        if (secretFile != null) {
            Files.deleteIfExists(secretFile);
        }
    }

    @Test
    void survivorsFailInBoundedTimeAndDisconnect() throws Exception {
        List<PortName> port = new ArrayList<>();
        jobs = TwoJobs.start(TwoJobs.fourSites(), new int[] {0, 3}, new int[] {6}, 2, false, InterPhase.TOPOLOGY, fixture -> {
            port.add(fixture.publish("doomed"));
            child = launch(fixture, "doomed", 9);
        });
        List<Future<InterCommunicator>> accepting = jobs.accept(port.get(0));
        List<Future<InterCommunicator>> connecting = jobs.connectHere("doomed");
        String connected = CompletableFuture.supplyAsync(this::connectedLine).get(120, TimeUnit.SECONDS);
        List<InterCommunicator> servers = accepting.stream().map(f -> Await.result(f, Duration.ofSeconds(90))).toList();
        InterCommunicator survivor = Await.result(connecting.get(0), Duration.ofSeconds(90));
        int deadRank = Integer.parseInt(connected.split(" ")[1]);
        assertThat(survivor.rank()).isEqualTo(1 - deadRank);

        long killed = System.nanoTime();
        child.destroyForcibly(); // SIGKILL: no goodbye, no disconnect
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();

        List<Future<Buffer>> gathers = new ArrayList<>();
        servers.forEach(s -> gathers.add(s.allgather(Buffer.buffer("s"))));
        gathers.add(survivor.allgather(Buffer.buffer("c")));
        for (Future<Buffer> gather : gathers) {
            Throwable failure = Await.failure(gather, BOUND);
            LOG.info("allgather after the kill: {}", failure.toString());
            assertThat(failure.getMessage()).isNotBlank();
        }
        Throwable sendFailure = Await.failure(servers.get(0).send(deadRank, 1, Buffer.buffer("x")), BOUND);
        LOG.info("send to the dead rank: {}", sendFailure.toString());
        LOG.info("every survivor failed {} ms after SIGKILL", (System.nanoTime() - killed) / 1_000_000);

        List<Future<Void>> disconnects = new ArrayList<>();
        servers.forEach(s -> disconnects.add(s.disconnect()));
        disconnects.add(survivor.disconnect());
        disconnects.forEach(d -> Await.result(d, BOUND));
        assertThat(Await.failure(servers.get(1).barrier())).hasMessageContaining("disconnected or freed");
        assertThat(child.isAlive()).isFalse();
    }

    private Process launch(TwoJobs fixture, String service, int index) {
        try {
            secretFile = fixture.clientSecret.writeTemporary();
            namesSecretFile = fixture.namesSecret.writeTemporary();
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx192m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    RemoteClientMain.class.getName(), fixture.zooKeeper.connectString(), fixture.clientJob.name(),
                    secretFile.toString(), fixture.namespace, service, String.valueOf(index), "2",
                    namesSecretFile.toString());
            return new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String connectedLine() {
        BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        try {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                if (line.startsWith("CONNECTED")) {
                    drain(output);
                    return line;
                }
                LOG.info("[remote client] {}", line);
            }
            throw new AssertionError("the remote client exited before it connected");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Keeps reading the child's output so it never blocks on a full pipe. */
    private static void drain(BufferedReader output) {
        Thread reader = new Thread(() -> {
            try {
                for (String line = output.readLine(); line != null; line = output.readLine()) {
                    LOG.info("[remote client] {}", line);
                }
            } catch (IOException closed) {
                // the child is gone
            }
        }, "remote-client-output");
        reader.setDaemon(true);
        reader.start();
    }

}
