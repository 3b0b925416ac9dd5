package dev.canopy.cli.bench.multicast;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * For each size: every method's warm-up, then the timed single bcasts with the methods taking turns, then
 * rounds of back-to-back runs, the methods taking turns in each round; one JSON row per method and size,
 * with the median round's rate (one run of a few hundred bcasts lasts tens of milliseconds, so one scheduler
 * stall on a shared machine could halve it); with skew, then each method's run of the seed's skew test
 * ({@link BroadcastTimer#skewedLoop}). Retransmissions and the root's ACKs count over a method's timed
 * and back-to-back bcasts of that size (and the skew test's).
 */
final class MethodRuns {

    /** Back-to-back runs carry at most this many bytes per method and size. */
    private static final long BACK_TO_BACK_BYTES = 16L << 20;
    /** Bcasts per member in the seed's skew test (with --skew-us): at 400 us, about 40 ms of skew per member. */
    static final int SKEWED_LOOP_BCASTS = 200;

    private final BroadcastTimer timer;
    private final int iterations;
    private final int warmup;
    private final int backToBack;
    private final int rounds;

    MethodRuns(BroadcastTimer timer, int iterations, int warmup, int backToBack, int rounds) {
        this.timer = timer;
        this.iterations = iterations;
        this.warmup = warmup;
        this.backToBack = backToBack;
        this.rounds = rounds;
    }

    JsonArray run(List<BenchMethod> methods, List<Integer> sizes) {
        JsonArray rows = new JsonArray();
        for (int bytes : sizes) {
            byte[] payload = new byte[bytes];
            new java.util.Random(bytes).nextBytes(payload);
            Buffer message = Buffer.buffer(payload);
            for (BenchMethod method : methods) {
                for (int i = 0; i < warmup; i++) {
                    timer.once(method, message);
                }
            }
            List<Optional<BenchMethod.Counters>> before = new ArrayList<>();
            List<double[]> millis = new ArrayList<>();
            for (BenchMethod method : methods) {
                before.add(method.counters(0));
                millis.add(new double[iterations]);
            }
            for (int i = 0; i < iterations; i++) {
                for (int m = 0; m < methods.size(); m++) {
                    millis.get(m)[i] = timer.once(methods.get(m), message);
                }
            }
            int count = backToBackCount(backToBack, bytes);
            double[][] rates = new double[methods.size()][rounds];
            for (int round = 0; round < rounds; round++) {
                for (int m = 0; m < methods.size(); m++) {
                    rates[m][round] = count / timer.backToBack(methods.get(m), message, count);
                }
            }
            double[][] inCall = new double[methods.size()][];
            for (int m = 0; m < methods.size() && timer.skewed(); m++) {
                inCall[m] = timer.skewedLoop(methods.get(m), message, SKEWED_LOOP_BCASTS);
            }
            for (int m = 0; m < methods.size(); m++) {
                BenchMethod method = methods.get(m);
                Arrays.sort(rates[m]);
                JsonObject row = row(method, bytes, millis.get(m), rounds * count, ResultRow.percentile(rates[m], 0.5),
                        before.get(m), method.counters(0));
                rows.add(ResultRow.withSkewedLoop(row, Optional.ofNullable(inCall[m])));
            }
        }
        return rows;
    }

    private static JsonObject row(BenchMethod method, int bytes, double[] millis, int count, double rate,
            Optional<BenchMethod.Counters> before, Optional<BenchMethod.Counters> after) {
        Optional<BenchMethod.Counters> counters = before.isPresent() && after.isPresent()
                ? Optional.of(new BenchMethod.Counters(after.get().retransmissions() - before.get().retransmissions(),
                        after.get().acksAtRoot() - before.get().acksAtRoot()))
                : Optional.empty();
        return ResultRow.of(method.name(), bytes, millis, count, rate, counters);
    }

    /** Back-to-back bcasts of {@code bytes}: at most {@code backToBack}, at most 16 MiB in all, at least 4. */
    static int backToBackCount(int backToBack, int bytes) {
        return (int) Math.max(4, Math.min(backToBack, BACK_TO_BACK_BYTES / Math.max(1, bytes)));
    }
}
