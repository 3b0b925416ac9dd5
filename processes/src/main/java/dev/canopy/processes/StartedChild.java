package dev.canopy.processes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One child JVM started by a {@link ChildStarter}: its process, its output (forwarded line by line, the last
 * {@value #KEPT_LINES} lines kept to explain a failure), whether it is warm, and its binding. Thread-safe: the
 * output is read on a thread of its own.
 */
public final class StartedChild {

    static final int KEPT_LINES = 20;

    private final Process process;
    private final Deque<String> lastLines = new ArrayDeque<>();
    private final CompletableFuture<Void> warm = new CompletableFuture<>();
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private final Thread output;
    /** The prefix of the child's output lines: what it runs, once bound. */
    private volatile String label;

    StartedChild(Process process, String label, Consumer<String> lines) {
        this.process = process;
        this.label = label;
        this.output = new Thread(() -> pump(lines), "output of child " + process.pid());
        output.setDaemon(true);
        output.start();
        process.onExit().thenRun(() -> {
            warm.completeExceptionally(new IllegalStateException("child " + process.pid() + " exited before it was warm"));
            started.complete(null);
        });
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Completes once the child has warmed up and waits for its binding; fails if it exits first. */
    public CompletableFuture<Void> warm() {
        return warm;
    }

    /** Completes once the bound child says its start-up is over ({@link ChildMain#reportStarted()}) or ends. */
    public CompletableFuture<Void> started() {
        return started;
    }

    /** Completes when the process has ended. */
    public CompletableFuture<Process> onExit() {
        return process.onExit();
    }

    /**
     * Gives the child its program: writes {@code binding} to its standard input, which then stays open and
     * silent (its end is how the child learns that its starter is gone).
     *
     * @throws UncheckedIOException when the child is gone
     */
    public void bind(ChildBinding binding) {
        try {
            label = "[" + binding.job() + "#" + binding.processIndex() + "] ";
            OutputStream in = process.getOutputStream();
            in.write((binding.encode() + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("child " + pid() + " is gone before it could be bound", e);
        }
    }

    /**
     * Why the child ended, for an error message: its exit status and its last lines of output (waiting briefly
     * for the output to drain).
     */
    public String describeExit() {
        try {
            output.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String status = process.isAlive() ? "still running" : "exit status " + process.exitValue();
        List<String> lines = lastLines();
        return status + (lines.isEmpty() ? ", no output" : "; its last output: " + String.join(" | ", lines));
    }

    /** Kills the child (and anything it started) at once. */
    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    List<String> lastLines() {
        synchronized (lastLines) {
            return List.copyOf(lastLines);
        }
    }

    private void pump(Consumer<String> lines) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.equals(ChildMain.WARM_MARKER)) {
                    warm.complete(null);
                    continue;
                }
                if (line.equals(ChildMain.STARTED_MARKER)) {
                    started.complete(null);
                    continue;
                }
                synchronized (lastLines) {
                    if (lastLines.size() == KEPT_LINES) {
                        lastLines.removeFirst();
                    }
                    lastLines.addLast(line);
                }
                lines.accept(label + line);
            }
        } catch (IOException e) {
            // The child is gone; its exit status tells why.
        }
    }
}
