package dev.canopy.cli.bench.multicast;

import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.collectives.run.LauncherWatch;
import dev.canopy.collectives.run.ProgramMain;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.security.JobSecret;
import dev.canopy.multicast.fabric.udp.NetworkNamespaces;
import io.vertx.core.json.JsonArray;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code canopy bench multicast --fabric udp}: the members over real IP multicast, each a JVM of its own in a
 * network namespace of its own (an emulated host; {@link NetworkNamespaces}: veth pairs on a Linux bridge in a
 * namespace of its own; the machine's interfaces and routes are never touched), started with
 * {@code ip netns exec}. One JVM per namespace because a JVM's sockets all live in the namespace it started in.
 * Member 0 also hosts the job's ZooKeeper on its address. Each member runs its side of {@link DistributedRuns}
 * and prints its times; this process merges them ({@link MemberTimes}).
 *
 * <p>Cleanup: namespaces left by an earlier run that was killed are removed first
 * ({@link NetworkNamespaces#removeStale()}); a shutdown hook kills the members and deletes the namespaces when
 * this JVM is interrupted (Ctrl-C); members exit by themselves when this process dies ({@code LauncherWatch}).
 */
final class NamespaceBench {

    /** The result: rows, what the multicast layer was (description) and why it was not multicast, if so. */
    record Outcome(JsonArray results, String layer, String fallback) {
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

    private final int members;
    private final DistributedRuns.Parameters parameters;
    private final PrintWriter err;
    private final List<Process> processes = new ArrayList<>();
    private final Map<Integer, JsonObject> results = new ConcurrentHashMap<>();
    private final CompletableFuture<String> zooKeeper = new CompletableFuture<>();
    private final CompletableFuture<JsonObject> layer = new CompletableFuture<>();

    NamespaceBench(int members, DistributedRuns.Parameters parameters, PrintWriter err) {
        this.members = members;
        this.parameters = parameters;
        this.err = err;
    }

    /**
     * Builds the namespaces and runs the members.
     *
     * @throws IOException when the namespaces cannot be built (the message says why) or a member fails
     */
    Outcome run(String levelFile, long timeoutSeconds) throws IOException, InterruptedException {
        NetworkNamespaces.removeStale();
        NetworkNamespaces namespaces = NetworkNamespaces.create(members);
        Thread cleanup = new Thread(() -> stop(namespaces), "canopy-bench-namespace-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        Path secret = JobSecret.generate().writeTemporary();
        Path config = Files.createTempFile("canopy-bench-multicast-", ".rsl");
        try {
            Files.writeString(config, levelFile);
            String job = "bench-multicast-" + ProcessHandle.current().pid();
            start(namespaces, 0, job, config, secret, null);
            String connect = awaitOrFail(zooKeeper, 60, "member 0 did not start ZooKeeper");
            for (int i = 1; i < members; i++) {
                start(namespaces, i, job, config, secret, connect);
            }
            JsonObject described = awaitOrFail(layer, timeoutSeconds, "the members did not open the multicast layer");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            for (Process process : processes) {
                if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    throw new IOException("the members did not finish within " + timeoutSeconds + " s (--timeout)");
                }
            }
            if (results.size() < members) {
                throw new IOException("member(s) " + missing() + " ended without a result (their output above says why)");
            }
            return new Outcome(MemberTimes.rows(new ArrayList<>(results.values()), parameters),
                    described.getString("description"), described.getString("fallback"));
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

    private void start(NetworkNamespaces namespaces, int index, String job, Path config, Path secret, String connect)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        String extra = System.getenv("CANOPY_JAVA_OPTS");
        if (extra != null && !extra.isBlank()) {
            command.addAll(List.of(extra.trim().split("\\s+")));
        }
        command.addAll(List.of("-Dcanopy.job=" + job, "-Dcanopy.process=" + index,
                "-cp", System.getProperty("java.class.path"), ProgramMain.class.getName(),
                MulticastBenchMember.class.getName(), NetworkNamespaces.addressOf(index), Boolean.toString(connect == null),
                parameters.toJson().encode()));
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
                    if (protocol && line.startsWith(MulticastBenchMember.ZOOKEEPER_LINE)) {
                        zooKeeper.complete(line.substring(MulticastBenchMember.ZOOKEEPER_LINE.length()));
                    } else if (protocol && line.startsWith(MulticastBenchMember.LAYER_LINE)) {
                        layer.complete(new JsonObject(line.substring(MulticastBenchMember.LAYER_LINE.length())));
                    } else if (protocol && line.startsWith(MulticastBenchMember.RESULT_LINE)) {
                        results.put(index, new JsonObject(line.substring(MulticastBenchMember.RESULT_LINE.length())));
                    } else {
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
        }, "bench-member-" + index + (protocol ? "-out" : "-err"));
        reader.setDaemon(true);
        reader.start();
    }

    private <T> T awaitOrFail(CompletableFuture<T> future, long seconds, String what) throws IOException,
            InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            try {
                return future.get(200, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                synchronized (processes) {
                    for (int i = 0; i < processes.size(); i++) {
                        if (!processes.get(i).isAlive()) {
                            throw new IOException(what + ": member " + i + " exited with status "
                                    + processes.get(i).exitValue() + " (its output above says why)");
                        }
                    }
                }
            } catch (ExecutionException e) {
                throw new IOException(what + ": " + e.getCause(), e.getCause());
            }
        }
        throw new IOException(what + " within " + seconds + " s");
    }

    private List<Integer> missing() {
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < members; i++) {
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
