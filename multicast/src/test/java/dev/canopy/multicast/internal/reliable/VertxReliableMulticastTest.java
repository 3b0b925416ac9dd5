package dev.canopy.multicast.internal.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.ThreadDelayScheduler;
import dev.canopy.core.testing.Await;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.link.InProcessLinks;
import dev.canopy.multicast.internal.loop.VertxOwnerLoop;
import dev.canopy.multicast.internal.testing.Payloads;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The same substrate on real Vert.x event loops and wall-clock timers, with the emulated fabric's
 * delayed (reordered) copies on a real delay thread and 5 % loss, duplication and reordering: every
 * member receives every message once, in order, byte-identical, and every buffer is back at the end.
 * Event loops are checked for blocking (max execute time 100 ms).
 */
class VertxReliableMulticastTest {

    private static final long SEED = Long.getLong("canopy.seed", System.nanoTime());
    private static final int MEMBERS = 6;
    private static final int MESSAGES = 2_000;

    private Vertx vertx;
    private ThreadDelayScheduler wire;

    @BeforeEach
    void startVertx() {
        vertx = Vertx.vertx(new VertxOptions().setMaxEventLoopExecuteTime(100).setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS));
        wire = new ThreadDelayScheduler("emulated-ud-wire");
    }

    @AfterEach
    void stopVertx() {
        wire.close();
        Await.result(vertx.close());
    }

    @Test
    @Timeout(60)
    void everyMemberGetsEveryMessageOnVertxLoops() {
        System.out.println("VertxReliableMulticastTest seed: " + SEED + " (replay with -Dcanopy.seed=" + SEED + ")");
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.faulty(0.05, 0, 200_000, SEED), NanoClock.SYSTEM,
                wire);
        List<VertxOwnerLoop> loops = new ArrayList<>();
        for (int i = 0; i < MEMBERS; i++) {
            loops.add(new VertxOwnerLoop(vertx, vertx.getOrCreateContext()));
        }
        InProcessLinks links = new InProcessLinks(loops, 0);
        List<ReliableMulticast> members = new ArrayList<>();
        for (int i = 0; i < MEMBERS; i++) {
            members.add(ReliableMulticast.create(SimulatedGroup.COMMUNICATOR, SimulatedGroup.GROUP,
                    fabric.attach("member-" + i, loops.get(i)), links.link(i), loops.get(i),
                    MulticastOptions.DEFAULTS.withSubGroupSize(2).withTimeouts(Duration.ofMillis(1), Duration.ofMillis(5))));
        }
        SplittableRandom random = new SplittableRandom(SEED);
        int[] roots = new int[MESSAGES];
        int[] sizes = new int[MESSAGES];
        for (int k = 0; k < MESSAGES; k++) {
            roots[k] = random.nextInt(MEMBERS);
            sizes[k] = random.nextInt(10) == 0 ? random.nextInt(20_000) : random.nextInt(200);
        }
        AtomicIntegerArray progress = new AtomicIntegerArray(MEMBERS);
        Queue<String> errors = new ConcurrentLinkedQueue<>();
        members.forEach(ReliableMulticast::start);
        for (int i = 0; i < MEMBERS; i++) {
            int member = i;
            loops.get(i).execute(() -> step(members.get(member), member, 0, roots, sizes, progress, errors));
        }

        Await.until(Duration.ofSeconds(45), () -> allDone(progress) || !errors.isEmpty(),
                () -> "progress " + progress + ", errors " + errors);
        assertThat(errors).isEmpty();
        Await.until(Duration.ofSeconds(10), () -> {
            for (int i = 0; i < MEMBERS; i++) {
                ReliableMulticast member = members.get(i);
                boolean quiet = onLoop(loops.get(i), () -> member.windowSlotsInUse() == 0
                        && member.postedReceiveBuffers() == member.receiveBufferCount() && member.queuedMessages() == 0);
                if (!quiet) {
                    return false;
                }
            }
            return true;
        }, () -> "windows empty, receive buffers posted, nothing delivered twice");
        MulticastStats stats = members.stream().map(m -> onLoop(loops.get(m.rank()), m::stats))
                .reduce(MulticastStats::plus).orElseThrow();
        System.out.println("VertxReliableMulticastTest: " + stats + ", " + fabric.stats());
        assertThat(fabric.stats().lost()).isPositive();
        assertThat(stats.retransmissions()).isPositive();
    }

    private static void step(ReliableMulticast member, int rank, int k, int[] roots, int[] sizes,
                             AtomicIntegerArray progress, Queue<String> errors) {
        if (k == roots.length) {
            return;
        }
        Future<?> operation = roots[k] == rank ? member.broadcast(Payloads.of(SEED, k, sizes[k]))
                : member.receive(roots[k]).map(message -> {
                    String mismatch = Payloads.mismatch(SEED, k, sizes[k], message);
                    if (mismatch != null) {
                        errors.add("member " + rank + ": " + mismatch);
                    }
                    return message;
                });
        operation.onComplete(result -> {
            if (result.failed()) {
                errors.add("member " + rank + " message " + k + ": " + result.cause());
                return;
            }
            progress.set(rank, k + 1);
            step(member, rank, k + 1, roots, sizes, progress, errors);
        });
    }

    private static boolean allDone(AtomicIntegerArray progress) {
        for (int i = 0; i < progress.length(); i++) {
            if (progress.get(i) < MESSAGES) {
                return false;
            }
        }
        return true;
    }

    private static <T> T onLoop(VertxOwnerLoop loop, Supplier<T> query) {
        Promise<T> promise = Promise.promise();
        loop.execute(() -> promise.complete(query.get()));
        return Await.result(promise.future());
    }
}
