package dev.canopy.cli.launch;

import dev.canopy.collectives.run.LauncherWatch;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The processes a launched host runs: one {@code canopy node} JVM per process of its part of the plan, listening
 * on the address its ssh session came in on, with its output and exit status sent up as {@link AgentMessage}s.
 * Each node's standard input is a pipe from the agent that is never written ({@code LauncherWatch}): should the
 * agent die without stopping them (SIGKILL), the nodes leave the job and exit by themselves.
 */
final class AgentNodes {

    /** Where the plan's files are on this host (written by the agent, mode 600). */
    record Files(Path levelFile, Path secret, Path programArguments, Optional<Path> tlsDirectory,
            Optional<Path> zooKeeperTlsDirectory) {
    }

    /** A node's JVM, and when its exit status has been sent (after the last line of its output). */
    private record Node(int process, Process jvm, CompletableFuture<Void> reported) {
    }

    /** The status of a node the job was stopped before it started: that of a node ended by SIGTERM. */
    private static final int STOPPED = 143;

    private final List<Node> nodes = new ArrayList<>();
    private boolean stopping;
    private final Consumer<AgentMessage> sink;

    AgentNodes(Consumer<AgentMessage> sink) {
        this.sink = sink;
    }

    /**
     * Starts process {@code process} of {@code plan}, binding {@code address}; once the nodes are stopping, reports it
     * as stopped (143, as a node ended by SIGTERM) instead.
     */
    synchronized void start(LaunchPlan plan, int process, String address, Files files) throws IOException {
        if (stopping) {
            sink.accept(new AgentMessage.Exited(process, STOPPED));
            return;
        }
        ProcessBuilder builder = new ProcessBuilder(command(plan, process, address, files)).redirectErrorStream(true);
        builder.environment().putAll(ProgramEnvironment.of(plan, process, address, files));
        builder.environment().put(LauncherWatch.ENV_WATCH_LAUNCHER, "1");
        Process jvm = builder.start();
        Thread output = new Thread(() -> pump(process, jvm), "node " + process + " output");
        output.setDaemon(true);
        output.start();
        nodes.add(new Node(process, jvm, jvm.onExit().thenRun(() -> {
            try {
                output.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sink.accept(new AgentMessage.Exited(process, jvm.exitValue()));
        })));
    }

    static List<String> command(LaunchPlan plan, int process, String address, Files files) {
        List<String> command = new ArrayList<>();
        command.add(plan.runtime().java());
        command.addAll(plan.runtime().javaOptions());
        // The job and process in the command line, so that ps (and tests) can tell a job's processes.
        command.addAll(List.of("-Dcanopy.job=" + plan.job(), "-Dcanopy.process=" + process,
                "-cp", plan.runtime().canopyClasspath(), "dev.canopy.cli.CanopyMain", "node",
                "--process", Integer.toString(process), "--config", files.levelFile().toString(),
                "--zk", plan.zooKeeper(), "--job", plan.job(), "--secret-file", files.secret().toString(),
                "--class", plan.program().className(), "--host", address));
        plan.program().classpath().ifPresent(classpath -> command.addAll(List.of("--classpath", classpath)));
        if (plan.program().livePlans()) {
            command.add("--live-plans");
        }
        files.zooKeeperTlsDirectory().ifPresent(directory -> command.addAll(List.of("--zk-tls", directory.toString())));
        files.tlsDirectory().ifPresent(directory -> {
            command.addAll(List.of("--tls", directory.toString()));
            plan.tls().flatMap(LaunchPlan.Tls::peerName).ifPresent(name -> command.addAll(List.of("--tls-peer-name", name)));
        });
        command.addAll(List.of("--arguments-file", files.programArguments().toString()));
        return command;
    }

    private void pump(int process, Process jvm) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = BoundedLines.read(lines, AgentMessage.MAX_LINE_CHARS)) != null) {
                sink.accept(AgentMessage.Output.of(process, line));
            }
        } catch (IOException e) {
            sink.accept(AgentMessage.Output.of(process, "(its output broke: " + e.getMessage() + ")"));
        }
    }

    /** Waits until every node has ended and reported, or {@code timeout} has passed; returns whether all ended. */
    boolean awaitEnd(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Node node : snapshot()) {
            try {
                node.reported().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                return false;
            } catch (ExecutionException e) {
                throw new IllegalStateException("reporting the exit of process " + node.process() + " failed", e.getCause());
            }
        }
        return true;
    }

    /**
     * Stops every node: SIGTERM first, so each leaves the job cleanly (exit 143); whatever still runs after
     * {@code grace}, and anything a node started, is killed.
     */
    void stop(Duration grace) throws InterruptedException {
        List<Node> running;
        synchronized (this) {
            stopping = true;
            running = List.copyOf(nodes);
        }
        running.forEach(node -> node.jvm().destroy());
        if (!awaitEnd(grace)) {
            for (Node node : running) {
                node.jvm().descendants().forEach(ProcessHandle::destroyForcibly);
                node.jvm().destroyForcibly();
            }
            awaitEnd(Duration.ofSeconds(5));
        }
    }

    private synchronized List<Node> snapshot() {
        return List.copyOf(nodes);
    }
}
