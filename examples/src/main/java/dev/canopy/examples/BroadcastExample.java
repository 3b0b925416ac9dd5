package dev.canopy.examples;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.BlockingCollectives;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import java.nio.charset.StandardCharsets;

/**
 * Rank 0 broadcasts a greeting; every rank prints what it received.
 *
 * <pre>canopy launch --config examples/grids/two-site.rsl --class dev.canopy.examples.BroadcastExample</pre>
 */
public final class BroadcastExample implements CanopyProgram {

    @Override
    public void run(CanopySession session) {
        BlockingCollectives<byte[]> bytes = session.blocking(ArrayType.BYTES);
        byte[] greeting = session.rank() == 0 ? "hello from rank 0".getBytes(StandardCharsets.UTF_8) : null;
        byte[] received = bytes.bcast(greeting, 0);
        System.out.println("rank " + session.rank() + " of " + session.size() + " (" + session.label() + ") got: "
                + new String(received, StandardCharsets.UTF_8));
    }
}
