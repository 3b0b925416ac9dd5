package dev.canopy.core.node;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link JobMemberProcess} in a separate JVM with this JVM's class path. Protocol lines from its
 * stdout are queued; everything else it prints is echoed with its name, for the test log.
 */
final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final PrintWriter commands;
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();

    private ChildProcess(String name, Process process) {
        this.name = name;
        this.process = process;
        this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readOutput, "child-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    static ChildProcess launch(String name, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"),
                JobMemberProcess.class.getName()));
        command.addAll(arguments);
        try {
            return new ChildProcess(name, new ProcessBuilder(command).redirectErrorStream(true).start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start child JVM " + name, e);
        }
    }

    void send(String command) {
        commands.println(command);
    }

    /** The next protocol line starting with {@code kind}; earlier lines of other kinds are skipped. */
    String await(String kind, Duration deadline) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (true) {
            String line = replies.poll(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError(name + " did not print " + kind + " within " + deadline.toMillis() + " ms"
                        + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")"));
            }
            if (line.startsWith(kind)) {
                return line;
            }
        }
    }

    long pid() {
        return process.pid();
    }

    void kill() {
        process.destroyForcibly(); // SIGKILL on Linux: no shutdown hook, no clean leave
    }

    int awaitExit(Duration deadline) throws InterruptedException {
        if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " did not exit within " + deadline.toMillis() + " ms");
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    private void readOutput() {
        try (BufferedReader output = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                if (line.startsWith(JobMemberProcess.PREFIX)) {
                    replies.add(line.substring(JobMemberProcess.PREFIX.length()));
                } else {
                    System.out.println("[" + name + "] " + line);
                }
            }
        } catch (IOException e) {
            System.out.println("[" + name + "] output closed: " + e.getMessage());
        }
    }
}
