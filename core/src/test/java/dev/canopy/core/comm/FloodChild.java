package dev.canopy.core.comm;

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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link FloodReceiverProcess} in a JVM of its own with a 64 MiB heap that exits (with code 3) on
 * the first OutOfMemoryError. Protocol lines are queued; other output is echoed, and lines
 * containing a watched word are counted.
 */
final class FloodChild implements AutoCloseable {

    static final String HEAP = "-Xmx64m";

    private final Process process;
    private final PrintWriter commands;
    private final String watched;
    private final AtomicInteger watchedLines = new AtomicInteger();
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();

    private FloodChild(Process process, String watched) {
        this.process = process;
        this.watched = watched;
        this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readOutput, "flood-child");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts the receiver of {@code job} with id {@code id}; counts output lines containing {@code watched}. */
    static FloodChild launch(String zooKeeper, String job, String id, Path secretFile, String watched) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                HEAP, "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"),
                FloodReceiverProcess.class.getName(), zooKeeper, job, id, secretFile.toString()));
        try {
            return new FloodChild(new ProcessBuilder(command).redirectErrorStream(true).start(), watched);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the flood receiver JVM", e);
        }
    }

    void send(String command) {
        commands.println(command);
    }

    /** The next protocol line starting with {@code kind}; a line of another kind fails the test. */
    String await(String kind, Duration deadline) throws InterruptedException {
        String line = replies.poll(deadline.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            throw new AssertionError("the flood receiver did not print " + kind + " within " + deadline.toMillis()
                    + " ms" + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")"));
        }
        if (!line.startsWith(kind)) {
            throw new AssertionError("the flood receiver printed " + line + " where " + kind + " was due");
        }
        return line;
    }

    /** {@link #await}, for callers that cannot throw InterruptedException (it becomes an AssertionError). */
    String awaitUninterruptibly(String kind, Duration deadline) {
        try {
            return await(kind, deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + kind, e);
        }
    }

    int watchedLines() {
        return watchedLines.get();
    }

    int awaitExit(Duration deadline) throws InterruptedException {
        if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the flood receiver did not exit within " + deadline.toMillis() + " ms");
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
                if (line.startsWith(FloodReceiverProcess.PREFIX)) {
                    replies.add(line.substring(FloodReceiverProcess.PREFIX.length()));
                } else {
                    if (line.contains(watched)) {
                        watchedLines.incrementAndGet();
                    }
                    System.out.println("[receiver] " + line);
                }
            }
        } catch (IOException e) {
            System.out.println("[receiver] output closed: " + e.getMessage());
        }
    }
}
