package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyMain;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How launched jobs end when something dies: a rank's JVM (out of heap, a fatal error on an event loop),
 * the launcher itself (SIGKILL), or ZooKeeper. Real JVMs, a real ZooKeeper, loopback only.
 */
@Tag("multiprocess")
@Timeout(120)
class LauncherLifecycleTest {

    @TempDir
    Path directory;

    private Path grid(int processes) throws Exception {
        Path config = directory.resolve("one-site-" + processes + ".rsl");
        Files.writeString(config, "+\n( &(type = subjob) (label = \"alpha\") (count = " + processes + ") )\n");
        return config;
    }

    @Test
    void aRankThatRunsOutOfMemoryOrMeetsAFatalErrorExitsAtOnceAndTheLauncherSaysSo() throws Exception {
        StringWriter out = new StringWriter();
        int status = CanopyMain.run(new PrintWriter(out), new PrintWriter(out), "launch", "--config", grid(2).toString(),
                "--class", DyingProgram.class.getName(), "--timeout", "90");

        String output = out.toString();
        assertThat(status).as(output).isEqualTo(3);
        assertThat(output).contains("[rank 1] allocating 16 GiB").doesNotContain("allocated ")
                .contains("rank 1 failed with exit status 3: a fatal JVM error: out of memory")
                .contains("[rank 0] canopy: fatal java.lang.OutOfMemoryError: simulated on an event loop in an event"
                        + " loop; leaving the job and exiting with status 3")
                .contains("rank 0 failed with exit status 3");
    }

    @Test
    void killingTheLauncherWithSigkillLeavesNoRankBehind() throws Exception {
        try (TestingServer zooKeeper = new TestingServer(true)) {
            String job = "orphans-" + System.nanoTime();
            Process launcher = new ProcessBuilder(javaCommand("launch", "--config", grid(2).toString(),
                    "--class", WaitingProgram.class.getName(), "--zk", zooKeeper.getConnectString(), "--job", job))
                    .redirectErrorStream(true).start();
            try {
                awaitLines(launcher, List.of("[rank 0] waiting", "[rank 1] waiting"));
                assertThat(ranksOf(job)).hasSize(2);

                long killedAt = System.nanoTime();
                launcher.destroyForcibly(); // SIGKILL: no finally, no shutdown hook runs in the launcher
                assertThat(launcher.waitFor(10, TimeUnit.SECONDS)).isTrue();

                // A rank halts at most EmergencyExit's 1.5 s leave bound after the pipe's end-of-file; the deadline
                // leaves room for a loaded machine, where a JVM's threads wait seconds for a core. Without the watch
                // the waiting ranks would never end, so any finite deadline shows it works; how fast is printed.
                awaitUntil(Duration.ofSeconds(20), () -> ranksOf(job).isEmpty(), () -> "ranks left: " + ranksOf(job));
                long gone = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
                System.out.println("the ranks of a SIGKILLed launcher were gone " + gone + " ms after the kill");
                try (CuratorFramework observer = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(),
                        new RetryOneTime(100))) {
                    observer.start();
                    awaitUntil(Duration.ofSeconds(5), () -> absent(observer, "/canopy/jobs/" + job),
                            () -> "the ranks removed their job from ZooKeeper as they left");
                }
            } finally {
                launcher.destroyForcibly();
                ranksOf(job).forEach(ProcessHandle::destroyForcibly);
            }
        }
    }

    @Test
    void whenZooKeeperDiesTheRanksSayTheyLostContactAndTheLauncherExitsPromptly() throws Exception {
        TestingServer zooKeeper = new TestingServer(true);
        String connectString = zooKeeper.getConnectString();
        StringWriter out = new StringWriter();
        String config = grid(2).toString();
        CompletableFuture<Integer> launch = CompletableFuture.supplyAsync(() -> CanopyMain.run(new PrintWriter(out),
                new PrintWriter(out), "launch", "--config", config, "--class", WaitingProgram.class.getName(),
                "--zk", connectString, "--timeout", "90"));
        long stoppedAt;
        try {
            awaitUntil(Duration.ofSeconds(60), () -> out.toString().contains("[rank 0] waiting")
                    && out.toString().contains("[rank 1] waiting"), out::toString);
            stoppedAt = System.nanoTime();
        } finally {
            zooKeeper.close();
        }

        int status = launch.get(60, TimeUnit.SECONDS);
        long exited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
        System.out.println("canopy launch exited " + exited + " ms after ZooKeeper stopped");
        String output = out.toString();
        assertThat(status).as(output).isEqualTo(1);
        assertThat(output).contains("lost contact with ZooKeeper at " + connectString)
                .doesNotContain("session expired")
                .contains("rank 0 failed with exit status 1").contains("rank 1 failed with exit status 1")
                .contains("ZooKeeper at " + connectString + " did not answer");
        // Session timeout (4 s), leaving without ZooKeeper, JVM exit and the launcher's bounded sweep (2 s).
        assertThat(exited).as(output).isLessThan(15_000);
    }

    /**
     * Polls {@code condition} until it holds, failing with {@code description} after {@code deadline}. (Core's
     * test {@code Await} is not on this module's test classpath: its logback-test.xml would reach the JVMs
     * other tests start with this classpath and turn their logs on.)
     */
    private static void awaitUntil(Duration deadline, BooleanSupplier condition, Supplier<String> description)
            throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + deadline.toMillis() + " ms: " + description.get());
            }
            TimeUnit.MILLISECONDS.sleep(20); // polling interval of a deadline wait, not synchronisation
        }
    }

    private static List<String> javaCommand(String... arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                CanopyMain.class.getName()));
        command.addAll(List.of(arguments));
        return command;
    }

    /** Reads the launcher's output until every line of {@code expected} has appeared. */
    private static void awaitLines(Process launcher, List<String> expected) throws Exception {
        List<String> missing = new ArrayList<>(expected);
        StringBuilder seen = new StringBuilder();
        CompletableFuture<Void> reading = CompletableFuture.runAsync(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(launcher.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while (!missing.isEmpty() && (line = lines.readLine()) != null) {
                    seen.append(line).append('\n');
                    missing.remove(line);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        reading.get(60, TimeUnit.SECONDS);
        assertThat(missing).as(seen.toString()).isEmpty();
    }

    /** The processes whose command line names {@code job}: the launcher puts {@code -Dcanopy.job=<job>} in each rank's. */
    private static List<ProcessHandle> ranksOf(String job) {
        String marker = "-Dcanopy.job=" + job;
        return ProcessHandle.allProcesses()
                .filter(process -> process.info().commandLine().map(line -> line.contains(marker)).orElse(false))
                .toList();
    }

    private static boolean absent(CuratorFramework client, String path) {
        try {
            return client.checkExists().forPath(path) == null;
        } catch (KeeperException.NoAuthException e) {
            // The job's znodes belong to its credentials, which this observer has not: ZooKeeper refuses to say
            // whether a znode of the job exists while it does; once deleted, it answers null. Under load the ranks
            // had not removed the job yet at the first look.
            return false;
        } catch (Exception e) {
            throw new AssertionError("cannot look at " + path + ": " + e, e);
        }
    }
}
