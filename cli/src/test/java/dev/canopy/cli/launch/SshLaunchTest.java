package dev.canopy.cli.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyMain;
import dev.canopy.cli.collectives.AllreduceProgram;
import dev.canopy.cli.collectives.ArgumentsProgram;
import dev.canopy.cli.collectives.FailingProgram;
import dev.canopy.cli.collectives.SelfCheckingProgram;
import dev.canopy.cli.collectives.WaitingProgram;
import dev.canopy.cli.collectives.ZooKeeperTlsKeys;
import dev.canopy.core.security.JobSecret;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code canopy launch --hostfile} over real ssh: a login host and three hosts, each a network namespace running
 * its own sshd ({@link SshHosts}); the launcher runs on the login host, the processes on the others, with real
 * sockets between the namespaces and a ZooKeeper inside the launcher. Needs root and OpenSSH; skips otherwise.
 */
@Tag("multiprocess")
@Timeout(400)
class SshLaunchTest {

    /** Each JVM small and quick to start: the test machine runs every "host" on its own cores. */
    private static final String JAVA_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss512k -Xmx160m";

    private static SshHosts hosts;
    /** The agents' private directories (secret, TLS keys) that were there before: none of this test's may remain. */
    private static Set<Path> agentDirectoriesBefore;

    @BeforeAll
    static void hosts() throws Exception {
        Optional<String> unavailable = SshHosts.unavailableReason();
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> "skipped: " + unavailable.orElseThrow());
        hosts = SshHosts.create(3);
        agentDirectoriesBefore = agentDirectories();
    }

    @AfterAll
    static void removeHosts() {
        if (hosts != null) {
            hosts.close();
        }
    }

    @Test
    void aThreeSiteJobStartedAsATreeOverSshRunsEveryCollective() throws Exception {
        Path hostfile = hostfile("every", "slots=2", "slots=1", "slots=1");
        Path secret = hosts.directory().resolve("every.key");
        JobSecret.generate().writeTo(secret);
        String job = "ssh-every-" + System.nanoTime();
        Launcher launcher = Launcher.start(job, List.of("--hostfile", hostfile.toString(), "--site-by", "subnet:/32",
                "--class", SelfCheckingProgram.class.getName(), "--secret-file", secret.toString(), "--ssh-fanout", "2"));
        try {
            // While it runs: the secret is on no command line of any host.
            String hex = Files.readString(secret).strip();
            SshHosts.await(Duration.ofSeconds(120), () -> launcher.output().contains("10.213.0.4 started"),
                    launcher::output);
            for (int host = 0; host <= 3; host++) {
                assertThat(hosts.processesOn(host)).allSatisfy(process -> assertThat(commandLine(process))
                        .doesNotContain(hex));
            }
            int status = launcher.exitStatus(Duration.ofSeconds(300));
            String output = launcher.output();
            assertThat(status).as(output).isZero();
            IntStream.range(0, 4).forEach(rank -> assertThat(output).contains("[rank " + rank + "] self-check passed"));
            // The tree: the launcher starts the first two hosts, the first of them the third.
            assertThat(output).contains("10.213.0.2 started (reached from 10.213.0.1)")
                    .contains("10.213.0.3 started (reached from 10.213.0.1)")
                    .contains("10.213.0.4 started (reached from 10.213.0.2)");
        } finally {
            launcher.kill();
        }
        awaitNoProcessOnTheHosts();
    }

    @Test
    void withTlsEachHostGetsTheKeysOfItsProcessesOnlyInFilesOnlyItsOwnerReadsAndReachesZooKeeperOverTls() throws Exception {
        Path hostfile = hostfile("tls", "slots=1", "slots=1");
        String job = "ssh-tls-" + System.nanoTime();
        Launcher launcher = Launcher.start(job, List.of("--hostfile", hostfile.toString(), "--site-by", "subnet:/32",
                "--class", AllreduceProgram.class.getName(), "--tls", "--zk-tls", ZooKeeperTlsKeys.create(
                        hosts.directory().resolve("tls-zk"), "ip:" + SshHosts.address(0)).toString()));
        try {
            int status = launcher.exitStatus(Duration.ofSeconds(240));
            String output = launcher.output();
            assertThat(status).as(output).isZero();
            assertThat(output).contains("[rank 0] allreduce 2 1").contains("[rank 1] allreduce 2 1");
        } finally {
            launcher.kill();
        }
        awaitNoProcessOnTheHosts();
    }

    @Test
    void aMainProgramGetsItsArgumentsByteForByteAndJoinsThroughTheEmbeddedZooKeeperOverTlsLoggingAtInfoWithMinusV() throws Exception {
        Path hostfile = hostfile("arguments", "slots=1", "slots=1");
        // The launcher's ZooKeeper listens on the login host's address towards the hosts: its certificate names it.
        Path zooKeeperTls = ZooKeeperTlsKeys.create(hosts.directory().resolve("zk-tls"), "ip:" + SshHosts.address(0));
        List<String> arguments = new ArrayList<>(List.of("--hostfile", hostfile.toString(), "--site-by", "subnet:/32",
                "--class", ArgumentsProgram.class.getName(), "--zk-tls", zooKeeperTls.toString(), "-v", "--"));
        arguments.addAll(ArgumentsProgram.AWKWARD_ARGUMENTS);
        Launcher launcher = Launcher.start("ssh-args-" + System.nanoTime(), arguments);
        try {
            int status = launcher.exitStatus(Duration.ofSeconds(240));
            String output = launcher.output();
            assertThat(status).as(output).isZero();
            for (int rank = 0; rank < 2; rank++) {
                assertThat(output).contains("[rank " + rank + "] arguments " + ArgumentsProgram.AWKWARD_ARGUMENTS.size());
                for (int i = 0; i < ArgumentsProgram.AWKWARD_ARGUMENTS.size(); i++) {
                    assertThat(output).contains("[rank " + rank + "] argument " + i + " "
                            + ArgumentsProgram.hex(ArgumentsProgram.AWKWARD_ARGUMENTS.get(i)));
                }
                // Joined with the CANOPY_* environment the agent gave it: over TLS to ZooKeeper, on its host's address.
                assertThat(output).contains("[rank " + rank + "] allreduce 2 1");
            }
            // -v reached the remote JVMs: their INFO lines, hidden at the default WARN.
            assertThat(output).containsPattern("\\[rank [01]\\] [0-9:.]+ INFO ");
            assertThat(output).contains("canopy launch: all 2 hosts started; waiting for the 2 processes");
        } finally {
            launcher.kill();
        }
        awaitNoProcessOnTheHosts();
    }

    @Test
    void aZooKeeperGivenWithZkServesTheRemoteHosts() throws Exception {
        // A standalone ZooKeeper server on the login host, as a site would run one.
        Path data = Files.createDirectory(hosts.directory().resolve("zookeeper-data"));
        Path log = hosts.directory().resolve("zookeeper.out");
        Process zooKeeper = hosts.exec(0, List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Dzookeeper.admin.enableServer=false",
                "-cp", System.getProperty("java.class.path"), "org.apache.zookeeper.server.ZooKeeperServerMain",
                "2181", data.toString())).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            SshHosts.await(Duration.ofSeconds(60), () -> listening(0, 2181),
                    () -> "ZooKeeper did not start (alive: " + zooKeeper.isAlive() + "): " + SshHosts.read(log));
            Path hostfile = hostfile("zk", "slots=1", "slots=1", "slots=1");
            Launcher launcher = Launcher.start("ssh-zk-" + System.nanoTime(), List.of("--hostfile", hostfile.toString(),
                    "--site-by", "subnet:/32", "--class", AllreduceProgram.class.getName(),
                    "--zk", SshHosts.address(0) + ":2181"));
            try {
                int status = launcher.exitStatus(Duration.ofSeconds(240));
                String output = launcher.output();
                assertThat(status).as(output).isZero();
                IntStream.range(0, 3).forEach(rank -> assertThat(output).contains("[rank " + rank + "] allreduce 3 3"));
            } finally {
                launcher.kill();
            }
        } finally {
            zooKeeper.destroyForcibly();
            zooKeeper.waitFor(10, TimeUnit.SECONDS);
        }
        awaitNoProcessOnTheHosts();
    }

    @Test
    void theExitStatusIsTheWorstOfTheRemoteProcessesAndEachFailureIsNamed() throws Exception {
        Path hostfile = hostfile("failing", "slots=1", "slots=1", "slots=1");
        Launcher launcher = Launcher.start("ssh-fail-" + System.nanoTime(), List.of("--hostfile", hostfile.toString(),
                "--site-by", "subnet:/32", "--class", FailingProgram.class.getName()));
        try {
            int status = launcher.exitStatus(Duration.ofSeconds(240));
            String output = launcher.output();
            assertThat(status).as(output).isEqualTo(1);
            assertThat(output).contains("[rank 1] ").contains("rank 1 gives up")
                    .contains("canopy launch: rank 1 failed with exit status 1: the program failed (its output above says why)")
                    .doesNotContain("allreduce completed although rank 1 failed");
        } finally {
            launcher.kill();
        }
        awaitNoProcessOnTheHosts();
    }

    @Test
    void interruptingTheLauncherStopsEveryRemoteProcess() throws Exception {
        Path hostfile = hostfile("waiting", "slots=1", "slots=1", "slots=1");
        String job = "ssh-stop-" + System.nanoTime();
        // A chain (each host starts the next): the stop has to travel down the tree.
        Launcher launcher = Launcher.start(job, List.of("--hostfile", hostfile.toString(), "--site-by", "subnet:/32",
                "--class", WaitingProgram.class.getName(), "--ssh-fanout", "1"));
        try {
            SshHosts.await(Duration.ofSeconds(180), () -> IntStream.range(0, 3)
                    .allMatch(rank -> launcher.output().contains("[rank " + rank + "] waiting")), launcher::output);
            List<ProcessHandle> remote = new ArrayList<>();
            for (int host = 1; host <= 3; host++) {
                List<ProcessHandle> on = hosts.processesOn(host);
                assertThat(on).as("host %d", host).anySatisfy(process -> assertThat(commandLine(process))
                        .contains("canopy.job=" + job).contains(" node "));
                assertThat(on).as("host %d", host).anySatisfy(process -> assertThat(commandLine(process))
                        .contains("canopy.job=" + job).contains(LaunchAgentCommand.NAME));
                remote.addAll(on);
            }
            long nodes = remote.stream().filter(process -> commandLine(process).contains(" node ")).count();
            System.out.println("before the interruption: " + remote.size() + " processes on the three hosts (" + nodes
                    + " canopy node, 3 launch agents, sshd sessions and the agents' ssh clients): " + describe(remote));
            assertThat(nodes).isEqualTo(3);

            long stoppedAt = System.nanoTime();
            launcher.process().destroy(); // SIGTERM, as Ctrl-C's SIGINT: the launcher's shutdown hook stops the hosts
            int status = launcher.exitStatus(Duration.ofSeconds(90));
            awaitNoProcessOnTheHosts();
            System.out.println("every remote process was gone " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime()
                    - stoppedAt) + " ms after SIGTERM to the launcher");
            assertThat(remote).noneMatch(ProcessHandle::isAlive);
            String output = launcher.output();
            assertThat(status).as(output).isEqualTo(143);
            assertThat(output).contains("interrupted; stopping the processes on every host");
        } finally {
            launcher.kill();
        }
    }

    /** The whole command line ({@code ProcessHandle.Info} cuts long ones short). */
    @Test
    void aHostThatCannotBeReachedStopsTheJobWithSshsStatusAndItsMessage() throws Exception {
        Path hostfile = hostfile("unreachable", "slots=1", "slots=1");
        Files.writeString(hostfile, "10.213.0.99 slots=1\n", StandardOpenOption.APPEND);
        String job = "ssh-lost-" + System.nanoTime();
        Launcher launcher = Launcher.start(job, List.of("--hostfile", hostfile.toString(), "--site-by", "subnet:/32",
                "--class", WaitingProgram.class.getName()));
        try {
            int status = launcher.exitStatus(Duration.ofSeconds(120));
            String output = launcher.output();
            assertThat(status).as(output).isEqualTo(255);
            assertThat(output).contains("canopy launch: 10.213.0.99: ssh: connect to host 10.213.0.99 port 22")
                    .contains("the ssh session to 10.213.0.99 ended with status 255 (ssh could not connect or log in")
                    .contains("lost 10.213.0.99 (its ssh session ended with status 255); stopping the job on every host")
                    .contains("rank 2 failed with exit status 255");
        } finally {
            launcher.kill();
        }
        awaitNoProcessOnTheHosts();
    }

    @Test
    void aLauncherKilledOutrightLeavesNoRemoteProcessEither() throws Exception {
        Path hostfile = hostfile("killed", "slots=1", "slots=1", "slots=1");
        String job = "ssh-kill-" + System.nanoTime();
        Launcher launcher = Launcher.start(job, List.of("--hostfile", hostfile.toString(), "--site-by", "subnet:/32",
                "--class", WaitingProgram.class.getName(), "--ssh-fanout", "1"));
        try {
            SshHosts.await(Duration.ofSeconds(180), () -> IntStream.range(0, 3)
                    .allMatch(rank -> launcher.output().contains("[rank " + rank + "] waiting")), launcher::output);
            launcher.kill(); // SIGKILL: no shutdown hook; the agents see their ssh sessions close
        } finally {
            launcher.kill();
        }
        awaitNoProcessOnTheHosts();
    }

    /** Whether a socket listens on TCP {@code port} on host {@code host} (iproute2's ss, in its namespace). */
    private static boolean listening(int host, int port) {
        try {
            Process ss = hosts.exec(host, List.of("ss", "-Hltn", "sport = :" + port)).redirectErrorStream(true).start();
            String output = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return ss.waitFor(10, TimeUnit.SECONDS) && output.contains(":" + port);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void awaitNoProcessOnTheHosts() throws InterruptedException, IOException {
        for (int host = 1; host <= 3; host++) {
            int which = host;
            SshHosts.await(Duration.ofSeconds(30), () -> hosts.processesOn(which).isEmpty(),
                    () -> "left on host " + which + ": " + describe(hosts.processesOn(which)));
        }
        // An agent deletes its files as it exits, which may be a moment after its processes are gone.
        SshHosts.await(Duration.ofSeconds(30), () -> agentDirectoriesBefore.containsAll(agentDirectoriesOrNone()),
                () -> "the agents' files left: " + agentDirectoriesOrNone());
    }

    private static Set<Path> agentDirectoriesOrNone() {
        try {
            return agentDirectories();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<Path> agentDirectories() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(file -> file.getFileName().toString().startsWith("canopy-launch-"))
                    .collect(Collectors.toSet());
        }
    }

    private static String commandLine(ProcessHandle process) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline")),
                    StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return ""; // it has just ended
        }
    }

    private static String describe(List<ProcessHandle> processes) {
        return processes.stream().map(process -> process.pid() + " " + process.info().command().orElse("?"))
                .toList().toString();
    }

    /** A hostfile of hosts 1 to 3 with the given slots. */
    private static Path hostfile(String name, String... slots) throws Exception {
        StringBuilder text = new StringBuilder("# the test's hosts, one per network namespace\n");
        for (int host = 1; host <= slots.length; host++) {
            text.append(SshHosts.address(host)).append(' ').append(slots[host - 1]).append('\n');
        }
        Path file = hosts.directory().resolve(name + ".hosts");
        Files.writeString(file, text);
        return file;
    }

    /** {@code canopy launch} in a JVM of its own on the login host, its output in a file. */
    record Launcher(Process process, Path outputFile) {

        static Launcher start(String job, List<String> arguments) throws Exception {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                    CanopyMain.class.getName(), "launch", "--job", job, "--timeout", "300",
                    "--ssh-args", hosts.sshArguments()));
            command.addAll(arguments);
            Path output = hosts.directory().resolve(job + ".out");
            ProcessBuilder builder = hosts.exec(0, command).redirectErrorStream(true).redirectOutput(output.toFile());
            builder.environment().put("CANOPY_JAVA_OPTS", JAVA_OPTIONS);
            builder.environment().remove("CANOPY_ZK");
            return new Launcher(builder.start(), output);
        }

        String output() {
            return SshHosts.read(outputFile);
        }

        int exitStatus(Duration deadline) throws InterruptedException {
            if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("canopy launch did not end within " + deadline.toMillis() + " ms; output:\n"
                        + output());
            }
            return process.exitValue();
        }

        void kill() {
            process.destroyForcibly();
        }
    }
}
