package dev.canopy.cli.dashboard;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.collectives.run.JoinOptions;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Launched by {@link LaunchDashboardTest}: after a barrier, a bcast from rank 0 that the last rank joins
 * {@value #DELAY_MS} ms late on purpose; then rank 0 keeps the job alive until the test has seen the skew report
 * (the file {@value #SEEN} appears beside the level file), and every rank finishes.
 */
public final class SkewedBcastProgram implements CanopyProgram {

    static final long DELAY_MS = 1_500;
    static final String SEEN = "dashboard-saw-the-skew";
    private static final long KEEP_ALIVE_MS = 150_000;

    @Override
    public void run(CanopySession session) throws Exception {
        Collectives collectives = session.collectives();
        Blocking.await(collectives.barrier());
        if (session.rank() == session.size() - 1) {
            TimeUnit.MILLISECONDS.sleep(DELAY_MS); // the straggler the skew report must name
        }
        Blocking.await(collectives.bcast(session.rank() == 0 ? Buffer.buffer(new byte[4096]) : null, 0));
        System.out.println("bcast done");
        if (session.rank() == 0) {
            Path seen = Path.of(System.getenv(JoinOptions.ENV_CONFIG)).resolveSibling(SEEN);
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KEEP_ALIVE_MS);
            while (!Files.exists(seen) && System.nanoTime() < end) {
                TimeUnit.MILLISECONDS.sleep(50); // waits for the test's signal, a file: polled
            }
        }
    }
}
