package dev.canopy.cli.bench.namespaces;

import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.collectives.run.LauncherWatch;
import dev.canopy.collectives.run.ProgramMain;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.security.JobSecret;
import dev.canopy.multicast.internal.fabric.udp.LinkShape;
import dev.canopy.multicast.internal.fabric.udp.NetworkNamespaces;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a job of member JVMs, each in a network namespace of its own (an emulated host; {@link NetworkNamespaces}:
 * veth pairs on a Linux bridge in a namespace of its own, links optionally shaped like switch ports; the machine's
 * interfaces and routes are never touched), started with {@code ip netns exec}. One JVM per namespace because a
 * JVM's sockets all live in the namespace it started in. Member 0 also hosts the job's ZooKeeper on its address
 * ({@link NamespaceMember}). Each member prints protocol lines on its standard output ({@value #RESULT_LINE}JSON
 * once, and lines with the tags the caller asks for); everything else a member prints is copied to {@code err}.
 *
 * <p>Cleanup: namespaces of the same prefix left by an earlier run that was killed are removed first
 * ({@link NetworkNamespaces#removeStale(String)}); a shutdown hook kills the members and deletes the namespaces
 * when this JVM is interrupted (Ctrl-C, kill); members exit by themselves when this process dies
 * ({@code LauncherWatch}).
 */
public final class NamespaceJob {

    public static final String ZOOKEEPER_LINE = "ZOOKEEPER ";
    public static final String RESULT_LINE = "RESULT ";

    /** The members' results by process index, and the first line of every extra tag (without the tag). */
    public record Outcome(Map<Integer, JsonObject> results, Map<String, String> tagged) {
    }

    /**
     * What to build and run.
     *
     * @param namePrefix the namespaces' name prefix (each user its own, see {@link NetworkNamespaces})
     * @param hosts      namespaces, one member each
     * @param shape      how every link behaves; empty: unshaped veth pairs
     * @param jobName    the job's name; the process id is appended
     * @param levelFile  the level file (RSL) with {@code hosts} processes
     */
    public record Setup(String namePrefix, int hosts, Optional<LinkShape> shape, String jobName, String levelFile) {
    }

    /**
     * As {@code canopy launch}'s members: many JVMs on one machine, so the quick C1 compiler and the serial
     * collector (with C2's compile threads, 16 JVMs booting together on 2 cores starved each other long enough
     * for ZooKeeper sessions to expire). {@code CANOPY_JAVA_OPTS} comes after these, so
     * {@code -XX:TieredStopAtLevel=4} there brings C2 back.
     */
    private static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k",
            "-Xmx256m",
            "-XX:+ExitOnOutOfMemoryError", "-D" + CanopyVertx.DISABLE_DNS_CLIENT + "=true");

    private final Setup setup;
    private final List<String> tags;
    private final PrintWriter err;
    private final List<Process> processes = new ArrayList<>();
    private final Map<Integer, JsonObject> results = new ConcurrentHashMap<>();
    private final Map<String, String> tagged = new ConcurrentHashMap<>();
    private final CompletableFuture<String> zooKeeper = new CompletableFuture<>();

    /** {@code tags}: the extra protocol lines to collect (e.g. {@code "LAYER "}), the first of each kept. */
    public NamespaceJob(Setup setup, List<String> tags, PrintWriter err) {
        this.setup = setup;
        this.tags = List.copyOf(tags);
        this.err = err;
    }

    /**
     * Builds the namespaces, runs {@code memberMain} in each (arguments: its address, whether it hosts ZooKeeper,
     * then {@code arguments}) and waits for all of them to exit.
     *
     * @throws IOException when the namespaces cannot be built (the message says why), a member fails or the members
     *                     do not finish within {@code timeoutSeconds}
     */
    public Outcome run(Class<?> memberMain, List<String> arguments, long timeoutSeconds) throws IOException,
            InterruptedException {
        NetworkNamespaces.removeStale(setup.namePrefix());
        NetworkNamespaces namespaces = NetworkNamespaces.create(setup.namePrefix(), setup.hosts(), setup.shape());
        Thread cleanup = new Thread(() -> stop(namespaces), "canopy-namespace-job-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        Path secret = JobSecret.generate().writeTemporary();
        Path config = Files.createTempFile("canopy-namespace-job-", ".rsl");
        try {
            Files.writeString(config, setup.levelFile());
            String job = setup.jobName() + "-" + ProcessHandle.current().pid();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            start(namespaces, 0, job, config, secret, null, memberMain, arguments);
            String connect = awaitZooKeeper(deadline);
            for (int i = 1; i < setup.hosts(); i++) {
                start(namespaces, i, job, config, secret, connect, memberMain, arguments);
            }
            awaitExit(deadline, timeoutSeconds);
            if (results.size() < setup.hosts()) {
                throw new IOException("member(s) " + missing() + " ended without a result (their output above says why)");
            }
            return new Outcome(Map.copyOf(results), Map.copyOf(tagged));
        } finally {
            stop(namespaces);
            Files.deleteIfExists(secret);
            Files.deleteIfExists(config);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
    }

    private void start(NetworkNamespaces namespaces, int index, String job, Path config, Path secret, String connect,
            Class<?> memberMain, List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        String extra = System.getenv("CANOPY_JAVA_OPTS");
        if (extra != null && !extra.isBlank()) {
            command.addAll(List.of(extra.trim().split("\\s+")));
        }
        command.addAll(List.of("-Dcanopy.job=" + job, "-Dcanopy.process=" + index,
                "-cp", System.getProperty("java.class.path"), ProgramMain.class.getName(),
                memberMain.getName(), NetworkNamespaces.addressOf(index), Boolean.toString(connect == null)));
        command.addAll(arguments);
        ProcessBuilder builder = namespaces.exec(index, command);
        Map<String, String> environment = builder.environment();
        environment.put(JoinOptions.ENV_JOB, job);
        environment.put(JoinOptions.ENV_PROCESS, Integer.toString(index));
        environment.put(JoinOptions.ENV_CONFIG, config.toString());
        environment.put(JoinOptions.ENV_SECRET_FILE, secret.toString());
        if (connect != null) {
            environment.put(JoinOptions.ENV_ZOOKEEPER, connect);
        }
        // Standard input stays a pipe that this process never writes: it closes when this process dies.
        environment.put(LauncherWatch.ENV_WATCH_LAUNCHER, "1");
        Process process = builder.start();
        synchronized (processes) {
            processes.add(process);
        }
        readLines(process.getInputStream(), index, true);
        readLines(process.getErrorStream(), index, false);
    }

    /** Standard output carries the protocol lines; everything else (warnings, errors) is copied to ours. */
    private void readLines(InputStream from, int index, boolean protocol) {
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(from, StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (!(protocol && handled(index, line))) {
                        synchronized (err) {
                            err.println("[member " + index + "] " + line);
                            err.flush();
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                synchronized (err) {
                    err.println("[member " + index + "] output unreadable: " + e);
                    err.flush();
                }
            }
        }, "namespace-member-" + index + (protocol ? "-out" : "-err"));
        reader.setDaemon(true);
        reader.start();
    }

    private boolean handled(int index, String line) {
        if (line.startsWith(ZOOKEEPER_LINE)) {
            zooKeeper.complete(line.substring(ZOOKEEPER_LINE.length()));
            return true;
        }
        if (line.startsWith(RESULT_LINE)) {
            results.put(index, new JsonObject(line.substring(RESULT_LINE.length())));
            return true;
        }
        for (String tag : tags) {
            if (line.startsWith(tag)) {
                tagged.putIfAbsent(tag, line.substring(tag.length()));
                return true;
            }
        }
        return false;
    }

    private String awaitZooKeeper(long deadline) throws IOException, InterruptedException {
        while (System.nanoTime() < deadline) {
            try {
                return zooKeeper.get(200, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                failIfAMemberFailed("member 0 did not start ZooKeeper");
            } catch (ExecutionException e) {
                throw new IOException("member 0 did not start ZooKeeper: " + e.getCause(), e.getCause());
            }
        }
        throw new IOException("member 0 did not start ZooKeeper within the --timeout");
    }

    /** Waits for every member to exit; one that fails ends the wait at once. */
    private void awaitExit(long deadline, long timeoutSeconds) throws IOException, InterruptedException {
        List<Process> started;
        synchronized (processes) {
            started = List.copyOf(processes);
        }
        for (Process process : started) {
            while (!process.waitFor(200, TimeUnit.MILLISECONDS)) {
                failIfAMemberFailed("the job failed");
                if (System.nanoTime() > deadline) {
                    throw new IOException("the members did not finish within " + timeoutSeconds + " s (--timeout)");
                }
            }
        }
        failIfAMemberFailed("the job failed");
    }

    /** Fails when a member exited with an error before it printed its result (one failing later only logs). */
    private void failIfAMemberFailed(String what) throws IOException {
        synchronized (processes) {
            for (int i = 0; i < processes.size(); i++) {
                if (!processes.get(i).isAlive() && processes.get(i).exitValue() != 0 && !results.containsKey(i)) {
                    throw new IOException(what + ": member " + i + " exited with status " + processes.get(i).exitValue()
                            + " (its output above says why)");
                }
            }
        }
    }

    private List<Integer> missing() {
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < setup.hosts(); i++) {
            if (!results.containsKey(i)) {
                missing.add(i);
            }
        }
        return missing;
    }

    /** Kills the members still running, waits for them, deletes the namespaces (idempotent). */
    private void stop(NetworkNamespaces namespaces) {
        synchronized (processes) {
            processes.forEach(Process::destroyForcibly);
            for (Process process : processes) {
                try {
                    process.waitFor(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        namespaces.close();
    }
}
