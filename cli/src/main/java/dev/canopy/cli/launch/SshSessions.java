package dev.canopy.cli.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The ssh sessions one host (the launcher, or a launched host) opens to the hosts it starts: each runs
 * {@code canopy launch-agent} there ({@link LaunchAgentCommand}), gets its {@link LaunchPlan} as the first line of
 * standard input, and sends {@link AgentMessage}s back on standard output, which go to {@code sink} as they come.
 * ssh's own complaints (a host that cannot be reached, a refused key) become {@code problem} messages. When a
 * session ends, every process of its subtree that has not reported an exit status gets one, in an {@code unreported}
 * message: ssh's status (255 when it could not connect), so no process is ever waited for that will not report,
 * followed by a {@code lost} message.
 *
 * <p>Stopping: {@link #stop()} sends {@code stop} and closes each session's standard input; the agent there stops
 * its processes and its own sessions, then ends. The sink is called from this class's reader threads.
 */
final class SshSessions implements AutoCloseable {

    /** A line in a plan's place that ends the job; end of input does the same. */
    static final String STOP = "stop";

    private record Session(HostTree tree, Process ssh, OutputStream input, Thread reader) {
    }

    private final int processCount;
    private final Consumer<AgentMessage> sink;
    private final List<Session> sessions = new ArrayList<>();
    private final Set<Integer> exited = ConcurrentHashMap.newKeySet();
    private boolean stopped;

    SshSessions(int processCount, Consumer<AgentMessage> sink) {
        this.processCount = processCount;
        this.sink = message -> {
            if (message instanceof AgentMessage.Exited exit) {
                exited.add(exit.process());
            } else if (message instanceof AgentMessage.Unreported unreported) {
                exited.add(unreported.process());
            }
            sink.accept(message);
        };
    }

    /**
     * The command that starts the agent on a host: this plan's Java and Canopy, with a small heap, and the JVM's own
     * warnings on standard error, since standard output carries the agent's messages.
     */
    static String agentCommand(LaunchPlan plan) {
        return ShellWords.exec(List.of(plan.runtime().java(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m",
                "-XX:+DisplayVMOutputToStderr",
                "-Dcanopy.job=" + plan.job(), "-cp", plan.runtime().canopyClasspath(), "dev.canopy.cli.CanopyMain",
                LaunchAgentCommand.NAME));
    }

    /** Opens a session to {@code plan}'s host and sends it the plan. A session that fails to start ends at once. */
    synchronized void start(LaunchPlan plan) {
        HostTree tree = plan.tree();
        if (stopped) {
            sink.accept(new AgentMessage.Problem(tree.host(), "not started: the job is stopping"));
            tree.allProcesses().forEach(process -> sink.accept(new AgentMessage.Exited(process, 1)));
            return;
        }
        Process ssh;
        try {
            ssh = new ProcessBuilder(plan.ssh().command(tree.host(), agentCommand(plan))).start();
        } catch (IOException e) {
            sink.accept(new AgentMessage.Problem(tree.host(), "cannot run " + plan.ssh().program() + ": " + e.getMessage()));
            endWithoutStatus(tree, 255);
            return;
        }
        OutputStream input = ssh.getOutputStream();
        try {
            input.write((plan.toLine() + "\n").getBytes(StandardCharsets.UTF_8));
            input.flush();
        } catch (IOException e) {
            // ssh has already ended: what it printed says why, and the exit below accounts for the processes.
        }
        Thread reader = daemon(() -> readMessages(tree, ssh.getInputStream()), "ssh " + tree.host() + " messages");
        daemon(() -> readComplaints(tree, ssh.getErrorStream()), "ssh " + tree.host() + " errors");
        sessions.add(new Session(tree, ssh, input, reader));
        ssh.onExit().thenRun(() -> daemon(() -> ended(tree, ssh, reader), "ssh " + tree.host() + " end"));
    }

    private void readMessages(HostTree tree, InputStream from) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(from, StandardCharsets.UTF_8))) {
            String line;
            while ((line = BoundedLines.read(lines, AgentMessage.MAX_LINE_CHARS)) != null) {
                try {
                    sink.accept(AgentMessage.parse(line, processCount));
                } catch (IllegalArgumentException e) {
                    sink.accept(new AgentMessage.Problem(tree.host(), "sent a malformed line (" + e.getMessage()
                            + "); ignored"));
                }
            }
        } catch (IOException e) {
            sink.accept(new AgentMessage.Problem(tree.host(), "its session's output broke: " + e.getMessage()));
        }
    }

    private void readComplaints(HostTree tree, InputStream from) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(from, StandardCharsets.UTF_8))) {
            String line;
            while ((line = BoundedLines.read(lines, AgentMessage.MAX_LINE_CHARS)) != null) {
                if (!line.isBlank()) {
                    sink.accept(new AgentMessage.Problem(tree.host(), line.strip()));
                }
            }
        } catch (IOException e) {
            // the session's end is reported with its status
        }
    }

    private void ended(HostTree tree, Process ssh, Thread reader) {
        try {
            reader.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        endWithoutStatus(tree, ssh.exitValue());
    }

    /** Gives every process of {@code tree} that has not reported one an exit status, saying why. */
    private void endWithoutStatus(HostTree tree, int sshStatus) {
        List<Integer> silent = tree.allProcesses().filter(process -> !exited.contains(process)).toList();
        if (silent.isEmpty()) {
            return;
        }
        int status = sshStatus == 0 ? 1 : sshStatus;
        sink.accept(new AgentMessage.Problem(tree.host(), "the ssh session to " + tree.host() + " ended with status "
                + sshStatus + (sshStatus == 255 ? " (ssh could not connect or log in: its message above says why)" : "")
                + " before process(es) " + silent + " reported an exit status"));
        silent.forEach(process -> sink.accept(new AgentMessage.Unreported(process, status)));
        sink.accept(new AgentMessage.Lost(tree.host(), sshStatus));
    }

    /** Asks every session's agent to stop its processes (see the class comment). */
    synchronized void stop() {
        stopped = true;
        for (Session session : sessions) {
            try {
                session.input().write((STOP + "\n").getBytes(StandardCharsets.UTF_8));
                session.input().close();
            } catch (IOException e) {
                // already ended
            }
        }
    }

    /** Waits until every session has ended, or {@code timeout} has passed; returns whether all ended. */
    boolean awaitEnd(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Session session : snapshot()) {
            if (!session.ssh().waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }

    /** Stops the sessions, gives them {@code grace} to end, then kills the ssh clients still running. */
    void stop(Duration grace) throws InterruptedException {
        stop();
        if (!awaitEnd(grace)) {
            snapshot().forEach(session -> session.ssh().destroyForcibly());
        }
    }

    @Override
    public void close() {
        snapshot().forEach(session -> session.ssh().destroyForcibly());
    }

    private synchronized List<Session> snapshot() {
        return List.copyOf(sessions);
    }

    private static Thread daemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
