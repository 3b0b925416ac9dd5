package dev.canopy.cli.collectives;

import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Started by the tests: says it is idle, then does nothing (no collective a failed peer could break) until the file
 * named by {@value #ENV_DONE_FILE} exists, at most {@value #MAX_IDLE_MS} ms; then the session closes.
 */
public final class IdleUntilFileProgram implements CanopyProgram {

    static final String ENV_DONE_FILE = "CANOPY_TEST_DONE_FILE";
    private static final long MAX_IDLE_MS = 120_000;

    @Override
    public void run(CanopySession session) throws Exception {
        System.out.println("idle");
        Path done = Path.of(System.getenv(ENV_DONE_FILE));
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MAX_IDLE_MS);
        while (!Files.exists(done) && System.nanoTime() < end) {
            TimeUnit.MILLISECONDS.sleep(50); // waits for the test's signal, a file: polled
        }
    }
}
