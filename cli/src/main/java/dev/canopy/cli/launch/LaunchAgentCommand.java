package dev.canopy.cli.launch;

import dev.canopy.cli.LevelFiles;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.model.GridModel;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import picocli.CommandLine.Command;

/**
 * {@code canopy launch-agent} (hidden): what {@code canopy launch --hostfile} runs on each host over ssh. It reads
 * its {@link LaunchPlan} from standard input, writes the secret, level file, TLS files, ZooKeeper TLS client files
 * and the program's arguments ({@link ProgramArgumentsFile}) into a new directory only its owner may enter (files
 * mode 600, deleted at the end), starts the hosts below it in the start-up tree
 * ({@link SshSessions}), runs its own processes ({@link AgentNodes}) on the address its ssh session came in on, and
 * sends everything up on standard output ({@link AgentMessage}). It ends when all of them have.
 *
 * <p>Stopping: a {@code stop} line or the end of standard input (the ssh session closed: the launcher was
 * interrupted, or died, or the network went), SIGTERM, SIGINT or SIGHUP: the agent passes {@code stop} down,
 * sends SIGTERM to its nodes (they leave the job, exit 143), kills whatever still runs after
 * {@link #STOP_GRACE}, waits for the hosts below, and exits.
 */
@Command(name = LaunchAgentCommand.NAME, hidden = true,
        description = "Run one host's part of a canopy launch --hostfile (started by canopy launch over ssh).")
public final class LaunchAgentCommand implements Callable<Integer> {

    static final String NAME = "launch-agent";

    /** A node leaves within 5 s of SIGTERM ({@code LeaveOnShutdown.LEAVE_BOUND}); then it is killed. */
    static final Duration STOP_GRACE = Duration.ofSeconds(7);
    /** Hosts below stop their own nodes first, each level within its grace. */
    private static final Duration SESSIONS_GRACE = Duration.ofSeconds(20);
    private static final Duration UNBOUNDED = Duration.ofDays(365);

    private final AtomicBoolean stopping = new AtomicBoolean();
    private PrintStream protocol;
    /** Where this host's copy of the secret, level file and TLS files is; null once deleted. */
    private Path directory;
    /** The level file's number of processes, once the plan's level file has been read. */
    private int processCount;

    @Override
    public Integer call() throws Exception {
        // Standard output carries the protocol; anything else printed to it would corrupt it.
        protocol = System.out;
        System.setOut(System.err);
        String address = sessionAddress(System.getenv()).orElse("");
        String via = sessionClient(System.getenv()).orElse("unknown");
        String self = address.isEmpty() ? "unknown" : address;
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        directory = Files.createTempDirectory("canopy-launch-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try {
            String line = BoundedLines.read(input, LaunchPlan.MAX_LINE_CHARS);
            if (line == null || line.equals(SshSessions.STOP)) {
                return 0;
            }
            if (address.isEmpty()) {
                send(new AgentMessage.Problem(self, "SSH_CONNECTION is not set: canopy launch-agent runs only in an"
                        + " ssh session opened by canopy launch --hostfile"));
                return 2;
            }
            Path levelFile = directory.resolve("grid.rsl");
            LaunchPlan plan;
            try {
                plan = LaunchPlan.fromLine(line, text -> levelFileProcesses(text, levelFile));
                JobId.of(plan.job());
            } catch (IllegalArgumentException e) {
                send(new AgentMessage.Problem(self, e.getMessage()));
                return 2;
            }
            return run(plan, levelFile, address, via, input);
        } finally {
            deleteFiles();
        }
    }

    private int run(LaunchPlan plan, Path levelFile, String address, String via, BufferedReader input)
            throws Exception {
        String host = plan.tree().host();
        AgentNodes.Files files;
        try {
            files = writeFiles(plan, levelFile, directory);
        } catch (IllegalArgumentException e) {
            send(new AgentMessage.Problem(host, e.getMessage()));
            return 2;
        }
        send(new AgentMessage.Started(host, via));
        SshSessions sessions = new SshSessions(processCount, this::send);
        AgentNodes nodes = new AgentNodes(this::send);
        Thread stopper = new Thread(() -> stop(sessions, nodes), "canopy launch-agent stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        Thread watch = new Thread(() -> awaitStop(input, stopper), "canopy launch-agent input");
        watch.setDaemon(true);
        watch.start();
        plan.tree().children().forEach(child -> sessions.start(plan.forChild(child)));
        for (int process : plan.tree().processes()) {
            try {
                nodes.start(plan, process, address, files);
            } catch (IOException | IllegalArgumentException e) {
                send(new AgentMessage.Problem(host, "cannot start process " + process + ": " + e.getMessage()));
                send(new AgentMessage.Exited(process, 2));
            }
        }
        // No bound here: the launcher bounds the job (--timeout) and stops it, which ends these waits.
        nodes.awaitEnd(UNBOUNDED);
        sessions.awaitEnd(UNBOUNDED);
        if (!stopping.get()) {
            Runtime.getRuntime().removeShutdownHook(stopper);
        }
        return 0;
    }

    /** Reads standard input after the plan: {@code stop}, or its end, stops this host's part of the job. */
    private void awaitStop(BufferedReader input, Thread stopper) {
        try {
            String line;
            while ((line = BoundedLines.read(input, 64)) != null && !line.equals(SshSessions.STOP)) {
                // nothing else is sent after the plan
            }
        } catch (IOException e) {
            // a broken session stops the job as its end does
        }
        stopper.run();
    }

    private void stop(SshSessions sessions, AgentNodes nodes) {
        if (!stopping.compareAndSet(false, true)) {
            return;
        }
        try {
            sessions.stop();
            nodes.stop(STOP_GRACE);
            sessions.stop(SESSIONS_GRACE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        protocol.flush();
        deleteFiles(); // after SIGTERM the JVM may end before call() returns
    }

    /** Deletes the secret, level file and TLS files, once no node needs them. */
    private synchronized void deleteFiles() {
        if (directory == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
            directory = null;
        } catch (IOException e) {
            System.err.println("canopy launch-agent: cannot delete " + directory + ": " + e.getMessage());
        }
    }

    private synchronized void send(AgentMessage message) {
        protocol.println(message.encode());
        protocol.flush();
    }

    /** Writes the level file and reads it back: its number of processes bounds the plan's process indices. */
    private int levelFileProcesses(String text, Path levelFile) {
        try {
            writePrivate(levelFile, text);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write the level file to " + levelFile + ": " + e.getMessage());
        }
        StringWriter problems = new StringWriter();
        Optional<GridModel> grid = LevelFiles.load(levelFile, NAME, new PrintWriter(problems));
        processCount = grid.orElseThrow(() -> new IllegalArgumentException("the plan's level file is not valid: "
                + problems.toString().strip())).processCount();
        return processCount;
    }

    private static AgentNodes.Files writeFiles(LaunchPlan plan, Path levelFile, Path directory) throws IOException {
        Path secret = directory.resolve("job.key");
        writePrivate(secret, plan.secretHex() + "\n");
        JobSecret.fromFile(secret); // checks it as the nodes will
        Optional<Path> tlsDirectory = Optional.empty();
        if (plan.tls().isPresent()) {
            Path tls = Files.createDirectory(directory.resolve("tls"));
            for (Map.Entry<Integer, LaunchPlan.TlsFiles> files : plan.tls().get().perProcess().entrySet()) {
                writePrivate(tls.resolve("node-" + files.getKey() + ".crt"), files.getValue().certificate());
                writePrivate(tls.resolve("node-" + files.getKey() + ".key"), files.getValue().key());
                writePrivate(tls.resolve("ca.crt"), files.getValue().ca());
            }
            tlsDirectory = Optional.of(tls);
        }
        Optional<Path> zooKeeperTls = Optional.empty();
        if (plan.zooKeeperTls().isPresent()) {
            zooKeeperTls = Optional.of(plan.zooKeeperTls().get().writeTo(directory.resolve("zk-tls")));
        }
        Path arguments = ProgramArgumentsFile.write(plan.program().arguments(), directory.resolve("arguments.json"));
        return new AgentNodes.Files(levelFile, secret, arguments, tlsDirectory, zooKeeperTls);
    }

    private static void writePrivate(Path file, String text) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** The address of this host that the ssh session came in on: reachable from the host that started this one. */
    static Optional<String> sessionAddress(Map<String, String> environment) {
        return sshConnectionField(environment, 2);
    }

    /** The address the ssh session came from. */
    static Optional<String> sessionClient(Map<String, String> environment) {
        return sshConnectionField(environment, 0);
    }

    /** {@code SSH_CONNECTION} is "client-address client-port server-address server-port". */
    private static Optional<String> sshConnectionField(Map<String, String> environment, int field) {
        String connection = environment.get("SSH_CONNECTION");
        if (connection == null) {
            return Optional.empty();
        }
        String[] fields = connection.strip().split("\\s+");
        return fields.length == 4 && fields[field].matches("[0-9A-Fa-f.:]{1,64}") ? Optional.of(fields[field])
                : Optional.empty();
    }
}
