package dev.canopy.collectives.internal.calibration;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.segmentation.EscalationDetector;
import dev.canopy.collectives.internal.segmentation.TimingSample;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@link Calibration} for members that run in processes of their own (one per host): every member calls
 * {@link #run} with its own {@link Collectives} (native: flat trees, no thresholds), and the root gets the curves
 * and the detected thresholds. Timed as segmentation.md measures: on the root, from a barrier until a barrier
 * after the operation (every process finished), so sizes never pipeline into each other. Blocking: call it from
 * a plain thread, never from an event loop.
 */
public final class MemberCalibration {

    private MemberCalibration() {
    }

    /** Untimed rounds over every size first: connections opened, code compiled, the members' start-up load gone. */
    static final int WARMUP_ROUNDS = 2;

    /**
     * Scatter and gather of each size ({@code sizes}: bytes per process), {@code repetitions} times each, after
     * {@value #WARMUP_ROUNDS} untimed rounds. Each repetition runs every size once, so that a stretch of the machine's
     * load (other processes, a collection) spreads over all sizes instead of making one size look escalated. The
     * result at the root, empty elsewhere; gather escalations found by {@code escalation}.
     */
    public static Optional<Calibration.Result> run(Collectives member, int root, List<Integer> sizes, int repetitions,
            EscalationDetector escalation) {
        List<TimingSample> scatter = new ArrayList<>();
        List<TimingSample> gather = new ArrayList<>();
        for (int round = 0; round < WARMUP_ROUNDS; round++) {
            for (int bytes : sizes) {
                timeOnRoot(member, () -> scatter(member, bytes, root));
                timeOnRoot(member, () -> gather(member, bytes, root));
            }
        }
        for (int repetition = 0; repetition < repetitions; repetition++) {
            for (int bytes : sizes) {
                scatter.add(new TimingSample(bytes, timeOnRoot(member, () -> scatter(member, bytes, root))));
                gather.add(new TimingSample(bytes, timeOnRoot(member, () -> gather(member, bytes, root))));
            }
        }
        return member.rank() == root ? Optional.of(Calibration.detect(scatter, gather, escalation)
                .observedWith(member.size() - 1)) : Optional.empty();
    }

    /** {@code bytes} to every rank from {@code root} (which passes the whole buffer, the others nothing). */
    public static Future<?> scatter(Collectives member, int bytes, int root) {
        return member.scatter(member.rank() == root ? Buffer.buffer(new byte[bytes * member.size()]) : null, bytes, root);
    }

    /** {@code bytes} from every rank to {@code root}. */
    public static Future<?> gather(Collectives member, int bytes, int root) {
        return member.gather(Buffer.buffer(new byte[bytes]), root);
    }

    /**
     * Barrier, the operation, barrier: the milliseconds from the first barrier's end until the second's on this
     * member (on the root: until every member finished the operation, the barrier's own time included).
     */
    public static double timeOnRoot(Collectives member, Supplier<Future<?>> operation) {
        Blocking.await(member.barrier());
        long start = System.nanoTime();
        Blocking.await(operation.get());
        Blocking.await(member.barrier());
        return (System.nanoTime() - start) / 1e6;
    }
}
