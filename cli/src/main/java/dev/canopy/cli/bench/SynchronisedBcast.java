package dev.canopy.cli.bench;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.BlockingCollectives;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Times broadcasts with the method of gridbed's {@code mpibench} (the Open MPI benchmark it is compared
 * with), for processes on one kernel, which all read the same monotonic clock ({@link System#nanoTime}):
 * per iteration the root broadcasts a start time {@code T = now + guard} (untimed), every process waits
 * until {@code T}, stamps its start, runs the broadcast and stamps its end; the stamps are gathered at
 * the root (untimed). <b>sync</b> is the latest end over all processes minus the root's start; <b>skew</b>
 * the latest start after {@code T}. The root prints one {@code RESULT} line per size (median, min and max
 * of sync in ms over the timed iterations).
 *
 * <p>Run by {@code canopy node --class dev.canopy.cli.bench.SynchronisedBcast} in every process (see
 * {@code bench/gridbed/run.sh}). Settings, as system properties (through {@code CANOPY_JAVA_OPTS} or
 * {@code java -D}): {@code canopy.bcast.sizes} (bytes, default {@value #DEFAULT_SIZES}),
 * {@code canopy.bcast.iterations} (default 20), {@code canopy.bcast.warmup} (untimed iterations first,
 * default 0), {@code canopy.bcast.guard-ms} (default 1000), {@code canopy.bcast.algorithm} (the
 * heavy-WAN tree, e.g. {@code spt}; default the level file's) and {@code canopy.bcast.root} (default 0).
 * Each size is planned for its message size, as {@code canopy bench collectives} does.
 */
public final class SynchronisedBcast implements CanopyProgram {

    static final String DEFAULT_SIZES = "2,1024,65536,1048576";

    @Override
    public void run(CanopySession session) {
        Settings settings = Settings.fromSystemProperties();
        int root = settings.root();
        if (root < 0 || root >= session.size()) {
            throw new IllegalArgumentException("canopy.bcast.root " + root + " is not a rank of this job (0.."
                    + (session.size() - 1) + ")");
        }
        Collectives configured = session.collectives();
        BlockingCollectives<long[]> control = session.blocking(ArrayType.LONGS);
        for (int size : settings.sizes()) {
            LevelAlgorithms fileLevels = LevelChoices.of(session.grid().levels());
            LevelAlgorithms levels = settings.algorithm().map(tree -> fileLevels.with(Level.HEAVY_WAN, tree))
                    .orElse(fileLevels);
            BlockingCollectives<byte[]> timed = new BlockingCollectives<>(configured.withPlan(
                    ConfiguredPlans.of(configured.communicator().members(), session.grid(), levels, size)), ArrayType.BYTES);
            byte[] message = new byte[size];
            double[] syncMs = new double[settings.iterations()];
            double[] skewMs = new double[settings.iterations()];
            for (int i = -settings.warmup(); i < settings.iterations(); i++) {
                long start = control.bcast(session.rank() == root ? new long[] {System.nanoTime()
                        + TimeUnit.MILLISECONDS.toNanos(settings.guardMs())} : null, root)[0];
                waitUntil(start);
                long began = System.nanoTime();
                timed.bcast(session.rank() == root ? message : null, root);
                long ended = System.nanoTime();
                long[] stamps = control.gather(new long[] {began, ended}, root).orElse(null);
                if (stamps != null && i >= 0) {
                    syncMs[i] = (latest(stamps, 1) - began) / 1e6;
                    skewMs[i] = (latest(stamps, 0) - start) / 1e6;
                }
            }
            if (session.rank() == root) {
                System.out.println(resultLine(size, settings, syncMs, skewMs));
                System.out.flush();
            }
        }
    }

    static String resultLine(int size, Settings settings, double[] syncMs, double[] skewMs) {
        double[] sorted = syncMs.clone();
        Arrays.sort(sorted);
        double[] skews = skewMs.clone();
        Arrays.sort(skews);
        return String.format(Locale.ROOT, "RESULT size=%d algorithm=%s iterations=%d sync_median_ms=%.1f"
                        + " sync_min_ms=%.1f sync_max_ms=%.1f skew_median_ms=%.2f",
                size, settings.algorithm().map(TreeAlgorithm::configName).orElse("file"), sorted.length,
                median(sorted), sorted[0], sorted[sorted.length - 1], median(skews));
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The latest of the gathered stamps at {@code offset} (0 = start, 1 = end) of each process's pair. */
    private static long latest(long[] stamps, int offset) {
        long latest = Long.MIN_VALUE;
        for (int i = offset; i < stamps.length; i += 2) {
            latest = Math.max(latest, stamps[i]);
        }
        return latest;
    }

    /** Sleeps until the monotonic clock reads {@code deadline} (parks, never spins: 16 processes share 2 cores). */
    private static void waitUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    /** What to measure, from system properties. */
    record Settings(List<Integer> sizes, int iterations, int warmup, long guardMs,
                    Optional<TreeAlgorithm> algorithm, int root) {

        static Settings fromSystemProperties() {
            List<Integer> sizes = Arrays.stream(System.getProperty("canopy.bcast.sizes", DEFAULT_SIZES).split(","))
                    .map(String::trim).map(size -> positive("canopy.bcast.sizes", size)).toList();
            String algorithm = System.getProperty("canopy.bcast.algorithm", "");
            Optional<TreeAlgorithm> tree = algorithm.isEmpty() ? Optional.empty()
                    : Optional.of(TreeAlgorithm.fromConfigName(algorithm).orElseThrow(() -> new IllegalArgumentException(
                            "canopy.bcast.algorithm '" + algorithm + "' is not a tree algorithm; choose from "
                                    + TreeAlgorithm.names())));
            return new Settings(sizes, positive("canopy.bcast.iterations", System.getProperty("canopy.bcast.iterations", "20")),
                    Integer.parseInt(System.getProperty("canopy.bcast.warmup", "0")),
                    positive("canopy.bcast.guard-ms", System.getProperty("canopy.bcast.guard-ms", "1000")), tree,
                    Integer.parseInt(System.getProperty("canopy.bcast.root", "0")));
        }

        private static int positive(String property, String value) {
            try {
                int parsed = Integer.parseInt(value);
                if (parsed > 0) {
                    return parsed;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(property + ": '" + value + "' is not a positive whole number");
        }
    }
}
