package dev.canopy.cli.bench.multicast;

import dev.canopy.collectives.Blocking;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Times bcasts of one method: one at a time (completion = the last receiver's delivery minus the root's
 * start, receivers optionally starting up to {@code skewMicros} late, seeded), and back to back (the root
 * issues {@code count} bcasts at once; the time until the last receiver has the last one), and in the seed's skew
 * test (every member skewed before each bcast of a loop; the time spent inside the calls).
 */
final class BroadcastTimer {

    private final int members;
    private final int root;
    private final long skewMicros;
    private final Random random;
    private final ScheduledExecutorService skewer;

    BroadcastTimer(int members, int root, long skewMicros, long seed, ScheduledExecutorService skewer) {
        this.members = members;
        this.root = root;
        this.skewMicros = skewMicros;
        this.random = new Random(seed);
        this.skewer = skewer;
    }

    /** Whether receivers (and, in {@link #skewedLoop}, every member) are skewed. */
    boolean skewed() {
        return skewMicros > 0;
    }

    /** One bcast; returns the completion time in ms. */
    double once(BenchMethod method, Buffer message) {
        AtomicLong lastDelivery = new AtomicLong(Long.MIN_VALUE);
        List<Future<?>> calls = new ArrayList<>();
        long start = System.nanoTime();
        calls.add(method.bcast(root, message, root));
        for (int rank = 0; rank < members; rank++) {
            if (rank != root) {
                calls.add(receiverCall(method, rank, lastDelivery));
            }
        }
        Blocking.await(Future.all(calls));
        return (lastDelivery.get() - start) / 1e6;
    }

    /** {@code count} bcasts back to back; returns the seconds until the last receiver had them all. */
    double backToBack(BenchMethod method, Buffer message, int count) {
        AtomicLong lastDelivery = new AtomicLong(Long.MIN_VALUE);
        List<Future<?>> calls = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            calls.add(method.bcast(root, message, root));
        }
        for (int rank = 0; rank < members; rank++) {
            if (rank != root) {
                for (int i = 0; i < count; i++) {
                    calls.add(method.bcast(rank, Buffer.buffer(), root)
                            .onSuccess(ignored -> lastDelivery.accumulateAndGet(System.nanoTime(), Math::max)));
                }
            }
        }
        Blocking.await(Future.all(calls));
        return (lastDelivery.get() - start) / 1e9;
    }

    /**
     * The seed's skew test: every member, root included, runs {@code count} bcasts, each after waiting a random 0 to
     * {@code skewMicros} us (seeded per member) since its previous one returned, as a process computing between
     * collectives does. Returns the time spent inside the bcast calls, from each call to the completion of its future,
     * in ms, over every member and call, sorted: the time a process loses waiting for the collective (in a tree, for a
     * late forwarder), without the skew itself.
     */
    double[] skewedLoop(BenchMethod method, Buffer message, int count) {
        List<Long> inCall = Collections.synchronizedList(new ArrayList<>());
        List<Future<?>> loops = new ArrayList<>();
        for (int rank = 0; rank < members; rank++) {
            Promise<Void> done = Promise.promise();
            Random own = new Random(random.nextLong());
            nextSkewedCall(method, rank, rank == root ? message : Buffer.buffer(), count, own, inCall, done);
            loops.add(done.future());
        }
        Blocking.await(Future.all(loops));
        double[] millis = inCall.stream().mapToDouble(nanos -> nanos / 1e6).toArray();
        Arrays.sort(millis);
        return millis;
    }

    private void nextSkewedCall(BenchMethod method, int rank, Buffer data, int left, Random own, List<Long> inCall,
            Promise<Void> done) {
        if (left == 0) {
            done.complete();
            return;
        }
        long delay = (long) (own.nextDouble() * skewMicros);
        skewer.schedule(() -> {
            long start = System.nanoTime();
            method.bcast(rank, data, root).onComplete(result -> {
                if (result.failed()) {
                    done.fail(result.cause());
                    return;
                }
                inCall.add(System.nanoTime() - start);
                nextSkewedCall(method, rank, data, left - 1, own, inCall, done);
            });
        }, delay, TimeUnit.MICROSECONDS);
    }

    private Future<?> receiverCall(BenchMethod method, int rank, AtomicLong lastDelivery) {
        long delay = skewMicros == 0 ? 0 : (long) (random.nextDouble() * skewMicros);
        if (delay == 0) {
            return method.bcast(rank, Buffer.buffer(), root)
                    .onSuccess(ignored -> lastDelivery.accumulateAndGet(System.nanoTime(), Math::max));
        }
        Promise<Void> done = Promise.promise();
        skewer.schedule(() -> method.bcast(rank, Buffer.buffer(), root).onComplete(result -> {
            lastDelivery.accumulateAndGet(System.nanoTime(), Math::max);
            done.handle(result.mapEmpty());
        }), delay, TimeUnit.MICROSECONDS);
        return done.future();
    }
}
