package dev.canopy.cli.bench.multicast;

import dev.canopy.collectives.Blocking;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Times bcasts of one method: one at a time (completion = the last receiver's delivery minus the root's
 * start, receivers optionally starting up to {@code skewMicros} late, seeded), and back to back (the root
 * issues {@code count} bcasts at once; the time until the last receiver has the last one).
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

    private Future<?> receiverCall(BenchMethod method, int rank, AtomicLong lastDelivery) {
        long delay = skewMicros == 0 ? 0 : (long) (random.nextDouble() * skewMicros);
        if (delay == 0) {
            return method.bcast(rank, Buffer.buffer(), root)
                    .onSuccess(ignored -> lastDelivery.accumulateAndGet(System.nanoTime(), Math::max));
        }
        io.vertx.core.Promise<Void> done = io.vertx.core.Promise.promise();
        skewer.schedule(() -> method.bcast(rank, Buffer.buffer(), root).onComplete(result -> {
            lastDelivery.accumulateAndGet(System.nanoTime(), Math::max);
            done.handle(result.mapEmpty());
        }), delay, TimeUnit.MICROSECONDS);
        return done.future();
    }
}
