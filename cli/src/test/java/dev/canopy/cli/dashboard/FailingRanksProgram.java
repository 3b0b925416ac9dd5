package dev.canopy.cli.dashboard;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Launched by {@link LaunchFailedRankTest}: after a barrier, rank {@value #THROWING_RANK} fails (an exception: exit
 * status 1), rank {@value #HALTING_RANK} halts with status 0 without leaving the job, and the others wait until the
 * test has killed one of them and seen the dashboard (the job's {@link #doneFile} appears), then finish.
 */
public final class FailingRanksProgram implements CanopyProgram {

    static final int THROWING_RANK = 1;
    static final int HALTING_RANK = 3;
    private static final long KEEP_ALIVE_MS = 150_000;

    @Override
    public void run(CanopySession session) throws Exception {
        Blocking.await(session.collectives().barrier());
        System.out.println("past the barrier");
        if (session.rank() == THROWING_RANK) {
            throw new IllegalStateException("rank " + THROWING_RANK + " fails on purpose");
        }
        if (session.rank() == HALTING_RANK) {
            System.out.flush();
            Runtime.getRuntime().halt(0); // gone without its goodbye: no leave, no shutdown hook
        }
        Path done = doneFile(session.node().job().name());
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KEEP_ALIVE_MS);
        while (!Files.exists(done) && System.nanoTime() < end) {
            TimeUnit.MILLISECONDS.sleep(50); // waits for the test's signal, a file: polled
        }
    }

    /** In the temporary directory, which the test shares with every process it launches, here or through an agent. */
    static Path doneFile(String job) {
        return Path.of(System.getProperty("java.io.tmpdir"), "canopy-failing-ranks-" + job + ".done");
    }
}
