package dev.canopy.cli.collectives;

import dev.canopy.cli.launch.ProcessExitListener;
import dev.canopy.collectives.run.EmergencyExit;
import dev.canopy.dashboard.failure.ProcessExits;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The processes one {@code canopy launch} started: it waits for them, reports each failure as it happens
 * (rank, exit status and what the status means) and stops whatever still runs when it is closed.
 * Each process also watches the launcher through its standard input ({@code LauncherWatch}), so none
 * outlives a launcher that is killed before it can close this.
 */
public final class RankProcesses implements AutoCloseable {

    private static final Duration OUTPUT_DRAIN = Duration.ofSeconds(5);
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);

    private record Rank(int index, int rank, Process process, Thread output) {
    }

    private final List<Rank> ranks = new ArrayList<>();
    private final PrintWriter err;
    private final ProcessExitListener exits;

    /** @param exits hears each process's end as it is seen (the launch's dashboard) */
    RankProcesses(PrintWriter err, ProcessExitListener exits) {
        this.err = err;
        this.exits = exits;
    }

    /** A started process (level-file index {@code index}) running {@code rank}, with the thread copying its output. */
    void add(int index, int rank, Process process, Thread output) {
        ranks.add(new Rank(index, rank, process, output));
    }

    /**
     * Waits until every process has ended, or until {@code timeout} has passed (then reports which ranks
     * still run and returns 1). Returns the worst exit status.
     */
    int awaitAll(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Rank> running = new ArrayList<>(ranks);
        int worst = 0;
        while (!running.isEmpty()) {
            try {
                CompletableFuture.anyOf(running.stream().map(rank -> rank.process().onExit()).toArray(CompletableFuture[]::new))
                        .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                err.println("canopy launch: " + describe(running) + " did not finish within " + timeout.toSeconds()
                        + " s; stopping every process");
                err.flush();
                return 1;
            } catch (ExecutionException e) {
                throw new IllegalStateException("waiting for the launched processes failed", e.getCause());
            }
            for (Rank ended : running.stream().filter(rank -> !rank.process().isAlive()).toList()) {
                running.remove(ended);
                ended.output().join(OUTPUT_DRAIN.toMillis());
                int status = ended.process().exitValue();
                exits.exited(ended.index(), status, meaning(status));
                if (status != 0) {
                    err.println("canopy launch: rank " + ended.rank() + " failed with exit status " + status + ": "
                            + meaning(status));
                    err.flush();
                }
                worst = Math.max(worst, status);
            }
        }
        return worst;
    }

    /** What a rank's exit status says (the statuses of {@code ProgramMain} and of the JVM). */
    public static String meaning(int status) {
        if (status == 1) {
            return "the program failed (its output above says why)";
        }
        if (status == 2) {
            return "the program could not be run (its output above says why)";
        }
        if (status == EmergencyExit.FATAL_ERROR) {
            return "a fatal JVM error: out of memory (raise -Xmx in CANOPY_JAVA_OPTS) or another VirtualMachineError";
        }
        if (status == EmergencyExit.LAUNCHER_GONE) {
            return "it lost its pipe to this launcher";
        }
        OptionalInt signalled = ProcessExits.signal(status);
        if (signalled.isPresent()) {
            int signal = signalled.getAsInt();
            return "killed by signal " + signal + (signal == 9 ? " (SIGKILL: by someone, or by the kernel when the"
                    + " machine ran out of memory)" : signal == 15 ? " (SIGTERM)" : "");
        }
        return "exit status " + status + " of the program";
    }

    private static String describe(List<Rank> running) {
        return running.size() == 1
                ? "rank " + running.get(0).rank()
                : "ranks " + running.stream().map(rank -> Integer.toString(rank.rank())).toList();
    }

    /** Kills every process still running and waits briefly for them to go. */
    @Override
    public void close() {
        ranks.forEach(rank -> rank.process().destroyForcibly());
        long deadline = System.nanoTime() + STOP_WAIT.toNanos();
        for (Rank rank : ranks) {
            try {
                rank.process().waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
