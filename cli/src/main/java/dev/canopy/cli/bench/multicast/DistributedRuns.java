package dev.canopy.cli.bench.multicast;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.Collectives;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * One member's side of the bench when every member is a process of its own ({@code --fabric udp}): the same
 * schedule as {@link MethodRuns} (per size, each method's warm-up, the timed single bcasts with the methods
 * taking turns, then each method's back-to-back run), with a barrier before every timed bcast so that each
 * starts with every member idle. It records {@link System#nanoTime()} (CLOCK_MONOTONIC, one clock for every
 * process of the machine, network namespaces included): the root when it starts a bcast, a receiver when it
 * has the message; {@link NamespaceBench} subtracts. Skew: after the barrier, each receiver waits a random
 * 0 to {@code skewMicros} us (seeded by seed and rank) before it calls bcast. Root: rank 0.
 */
final class DistributedRuns {

    /** One way of broadcasting, this member's side: {@code bcast(data, root)}, and the substrate's counters. */
    record Method(String name, BiFunction<Buffer, Integer, Future<Buffer>> bcast, Supplier<Optional<JsonObject>> stats) {
    }

    /** What every member runs; travels as JSON on the members' command lines. */
    record Parameters(List<Integer> sizes, int iterations, int warmup, int backToBack, long skewMicros, long seed,
                      int subGroupSize, int window, int credits, int udpMtu) {

        JsonObject toJson() {
            return new JsonObject().put("sizes", new JsonArray(new ArrayList<>(sizes))).put("iterations", iterations)
                    .put("warmup", warmup).put("back_to_back", backToBack).put("skew_us", skewMicros).put("seed", seed)
                    .put("sub_group", subGroupSize).put("window", window).put("credits", credits)
                    .put("udp_mtu", udpMtu);
        }

        static Parameters fromJson(JsonObject json) {
            List<Integer> sizes = new ArrayList<>();
            json.getJsonArray("sizes").forEach(size -> sizes.add(((Number) size).intValue()));
            return new Parameters(sizes, json.getInteger("iterations"), json.getInteger("warmup"),
                    json.getInteger("back_to_back"), json.getLong("skew_us"), json.getLong("seed"),
                    json.getInteger("sub_group"), json.getInteger("window"), json.getInteger("credits"),
                    json.getInteger("udp_mtu"));
        }

        MulticastOptions multicastOptions() {
            return MulticastBenchCommand.multicastOptions(subGroupSize, window, credits);
        }

        /** Back-to-back bcasts of {@code bytes}: as in {@link MethodRuns}. */
        int backToBackCount(int bytes) {
            return MethodRuns.backToBackCount(backToBack, bytes);
        }
    }

    static final int ROOT = 0;

    private final int rank;
    private final Collectives barrier;
    private final Parameters parameters;
    private final Random skew;

    DistributedRuns(int rank, Collectives barrier, Parameters parameters) {
        this.rank = rank;
        this.barrier = barrier;
        this.parameters = parameters;
        this.skew = new Random(parameters.seed() * 1_000_003L + rank);
    }

    /**
     * Runs the schedule; returns {@code {"sizes": [{"bytes", "methods": {name: {"once": [ns...], "b2b_start",
     * "b2b_end", "count", "stats_before", "stats_after"}}}]}} (the root's "once" are start times, a
     * receiver's delivery times; b2b_start only at the root, b2b_end only at receivers).
     */
    JsonObject run(List<Method> methods) {
        JsonArray sizes = new JsonArray();
        for (int bytes : parameters.sizes()) {
            byte[] payload = new byte[bytes];
            new Random(bytes).nextBytes(payload);
            Buffer message = rank == ROOT ? Buffer.buffer(payload) : Buffer.buffer();
            for (Method method : methods) {
                for (int i = 0; i < parameters.warmup(); i++) {
                    once(method, message);
                }
            }
            JsonObject byMethod = new JsonObject();
            List<long[]> times = new ArrayList<>();
            for (Method method : methods) {
                byMethod.put(method.name(), new JsonObject().put("stats_before", method.stats().get().orElse(null)));
                times.add(new long[parameters.iterations()]);
            }
            for (int i = 0; i < parameters.iterations(); i++) {
                for (int m = 0; m < methods.size(); m++) {
                    times.get(m)[i] = once(methods.get(m), message);
                }
            }
            int count = parameters.backToBackCount(bytes);
            for (int m = 0; m < methods.size(); m++) {
                Method method = methods.get(m);
                JsonObject entry = byMethod.getJsonObject(method.name()).put("count", count);
                backToBack(method, message, count, entry);
                JsonArray once = new JsonArray();
                for (long time : times.get(m)) {
                    once.add(time);
                }
                entry.put("once", once).put("stats_after", method.stats().get().orElse(null));
            }
            sizes.add(new JsonObject().put("bytes", bytes).put("methods", byMethod));
        }
        return new JsonObject().put("sizes", sizes);
    }

    /** One bcast after a barrier: the root's start time, or this receiver's delivery time. */
    private long once(Method method, Buffer message) {
        Blocking.await(barrier.barrier());
        if (rank == ROOT) {
            long start = System.nanoTime();
            Blocking.await(method.bcast().apply(message, ROOT));
            return start;
        }
        if (parameters.skewMicros() > 0) {
            waitNanos((long) (skew.nextDouble() * parameters.skewMicros() * 1_000));
        }
        // Timed where the message arrives (the event loop), not after the hand-off to this thread.
        return Blocking.await(method.bcast().apply(message, ROOT).map(ignored -> System.nanoTime()));
    }

    private void backToBack(Method method, Buffer message, int count, JsonObject entry) {
        Blocking.await(barrier.barrier());
        long start = System.nanoTime();
        List<Future<Long>> calls = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            calls.add(method.bcast().apply(message, ROOT).map(ignored -> System.nanoTime()));
        }
        long lastDelivery = Blocking.await(Future.all(calls)).<Long>list().stream().mapToLong(Long::longValue).max()
                .orElse(start);
        entry.put(rank == ROOT ? "b2b_start" : "b2b_end", rank == ROOT ? start : lastDelivery);
    }

    private static void waitNanos(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
