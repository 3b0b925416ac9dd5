package dev.canopy.core.comm;

import static dev.canopy.core.comm.FlowControlTest.numbered;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.internal.membership.testing.TestVertx;
import dev.canopy.core.internal.membership.testing.ZooKeeperServers;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two flood experiments of the faults issue, against a receiver in a JVM of its own with a
 * 64 MiB heap and default message limits (an 8 MiB window per peer, plus 4 MiB of rendezvous bodies
 * fetched ahead of their receives): 2000 messages of 64 KiB (125 MiB, twice
 * its heap) from a sender that never waits for its receiver, and the same volume of frames for a
 * context the receiver does not have from a sender that ignores the flow control.
 */
@Tag("multiprocess")
class FloodTest {

    private static final int SIZE = 64 << 10;
    private static final int MESSAGES = 2000;
    /** Sends the sender keeps in flight: more than the receiver's credit covers. */
    private static final int IN_FLIGHT = 512;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final JobSecret secret = JobSecret.generate();
    @TempDir
    Path directory;

    /** Issues {@code total} operations on {@code context}, keeping at most {@code inFlight} incomplete. */
    private static final class Pump {

        private final Context context;
        private final int total;
        private final IntFunction<Future<?>> operation;
        private final AtomicInteger issued = new AtomicInteger();
        private final AtomicInteger succeeded = new AtomicInteger();
        private final AtomicInteger failed = new AtomicInteger();
        private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

        Pump(Context context, int total, int inFlight, IntFunction<Future<?>> operation) {
            this.context = context;
            this.total = total;
            this.operation = operation;
            context.runOnContext(v -> {
                for (int i = 0; i < inFlight; i++) {
                    next();
                }
            });
        }

        private void next() {
            int index = issued.getAndIncrement();
            if (index >= total) {
                return;
            }
            operation.apply(index).onComplete(done -> {
                if (done.succeeded()) {
                    succeeded.incrementAndGet();
                } else {
                    failed.incrementAndGet();
                    firstFailure.compareAndSet(null, done.cause());
                }
                context.runOnContext(v -> next());
            });
        }

        int completed() {
            return succeeded.get() + failed.get();
        }
    }

    private static Map<String, Long> stats(FloodChild receiver) {
        receiver.send("STATS");
        Map<String, Long> stats = new HashMap<>();
        for (String field : receiver.awaitUninterruptibly("STATS", WAIT).substring("STATS ".length()).split(" ")) {
            String[] pair = field.split("=");
            stats.put(pair[0], Long.parseLong(pair[1]));
        }
        System.out.println("receiver: " + stats);
        return stats;
    }

    private NodeOptions senderOptions(TestingServer zooKeeper, String job) {
        return NodeOptions.of(JobId.of(job), NodeId.of("sender"),
                new Coordinates("wan", "site", "lan", "cluster", "host-sender"), 2, zooKeeper.getConnectString(), secret);
    }

    /** The job secret, in a file only its owner reads, for the receiver JVM. */
    private Path secretFile() throws IOException {
        Path file = directory.resolve("job.key");
        secret.writeTo(file);
        return file;
    }

    private static <T> T onContext(CommunicatorRuntime runtime, java.util.function.Supplier<T> read) {
        return Await.result(runtime.onContext(() -> Future.succeededFuture(read.get())), WAIT);
    }

    @Test
    void aReceiverThatNeverReceivesHoldsItsSenderBackAndLaterGetsEverythingInOrder() throws Exception {
        Vertx vertx = TestVertx.create();
        try (TestingServer zooKeeper = ZooKeeperServers.server();
                FloodChild receiver = FloodChild.launch(zooKeeper.getConnectString(), "flood", "receiver", secretFile(), "rejected")) {
            CanopyNode node = Await.result(CanopyNode.start(vertx, senderOptions(zooKeeper, "flood")), WAIT);
            Communicator world = Await.result(node.join(), WAIT);
            int to = Integer.parseInt(receiver.await("JOINED", WAIT).split(" ")[1]);
            CommunicatorRuntime runtime = FlowControlTest.runtimeOf(world);

            // A first message makes the receiver top the sender's credit up to its window; from then on
            // only the flood changes what is in flight, until the receiver receives.
            Await.result(world.send(to, FloodReceiverProcess.TAG, numbered(0, 64)), WAIT);
            receiver.send("RECEIVE " + world.rank() + " 1 64");
            receiver.await("RECEIVED 1", WAIT);
            Await.until(WAIT, () -> onContext(runtime, () -> runtime.outbound(to).credit())
                    > FlowProtocol.INITIAL_CREDIT, () -> "the receiver's first grant arrives");

            Pump pump = new Pump(world.context(), MESSAGES, IN_FLIGHT,
                    i -> world.send(to, FloodReceiverProcess.TAG, numbered(i, SIZE)));
            AtomicReference<Map<String, Long>> last = new AtomicReference<>();
            Await.until(WAIT, () -> {
                int started = pump.issued.get() - onContext(runtime, () -> runtime.outbound(to).waitingSends());
                last.set(stats(receiver));
                int completed = pump.completed();
                // Nothing in flight any more: all that started has arrived, no fetched body is on its way,
                // and every completed send is a queued eager message or fetched body.
                return started < pump.issued.get() && last.get().get("queued") == started
                        && last.get().get("fetching") == 0 && last.get().get("payloads") == completed;
            }, () -> "the sender's sends wait for credit and all it could send has arrived: " + last.get());
            int completedWhenStalled = pump.completed();
            Map<String, Long> flooded = last.get();
            System.out.println("sender: " + completedWhenStalled + " of " + MESSAGES + " sends of 64 KiB complete, "
                    + onContext(runtime, () -> runtime.outbound(to).waitingSends()) + " wait for credit");
            assertThat(flooded.get("held")).as("bytes the sender holds at the receiver")
                    .isPositive().isLessThanOrEqualTo(flooded.get("window"));
            assertThat(flooded.get("window")).isEqualTo(MessageLimits.DEFAULT_BYTES_PER_PEER);
            assertThat(completedWhenStalled).as("sends completed before the receiver received anything: eager"
                    + " ones within its window, and rendezvous ones whose bodies it fetched within half of that")
                    .isLessThanOrEqualTo((int) (flooded.get("window") * 3 / 2 / SIZE));
            assertThat(flooded.get("highWater")).isLessThanOrEqualTo(flooded.get("window") * 3 / 2);
            assertThat(flooded.get("heapUsed")).as("receiver heap in use after a GC: what it holds plus a node's"
                    + " own 10 to 15 MiB, far from its 64 MiB").isLessThan(flooded.get("heapMax") * 3 / 4);
            assertThat(pump.completed()).as("the sender stays held back").isEqualTo(completedWhenStalled);

            receiver.send("RECEIVE " + world.rank() + " " + MESSAGES + " " + SIZE);
            receiver.await("RECEIVED " + MESSAGES, WAIT);
            Await.until(WAIT, () -> pump.completed() == MESSAGES, () -> "every send completes");
            assertThat(pump.failed.get()).as("failed sends, first: " + pump.firstFailure.get()).isZero();
            Map<String, Long> drained = stats(receiver);
            assertThat(drained.get("highWater")).isLessThanOrEqualTo(drained.get("window") * 3 / 2);
            assertThat(drained.get("held")).isZero();

            receiver.send("EXIT");
            receiver.await("CLOSED", WAIT);
            assertThat(receiver.awaitExit(WAIT)).as("exit code (3: OutOfMemoryError)").isZero();
            Await.result(node.close(), WAIT);
        } finally {
            Await.result(vertx.close(), WAIT);
        }
    }

    @Test
    void framesForAContextTheReceiverLacksAreBoundedThenRejectedAndTheirSenderFailsClearly() throws Exception {
        Vertx vertx = TestVertx.create();
        try (TestingServer zooKeeper = ZooKeeperServers.server();
                FloodChild receiver = FloodChild.launch(zooKeeper.getConnectString(), "hostile", "receiver",
                        secretFile(), "rejected")) {
            CanopyNode node = Await.result(CanopyNode.start(vertx, senderOptions(zooKeeper, "hostile")), WAIT);
            GroupCommunicator world = (GroupCommunicator) Await.result(node.join(), WAIT);
            int to = Integer.parseInt(receiver.await("JOINED", WAIT).split(" ")[1]);
            CommunicatorRuntime runtime = world.runtime();

            // Straight onto the transport: no credit asked for, and a context the receiver never created.
            long start = System.nanoTime();
            Pump pump = new Pump(world.context(), MESSAGES, 64, i -> runtime.transport().send(world.member(to),
                    new Frame(FrameType.DATA, runtime.jobKey(), 777, 0, world.worldRank(world.rank()),
                            world.worldRank(to), 1, i, numbered(i, SIZE))));
            Await.until(WAIT, () -> pump.completed() == MESSAGES, () -> "every raw frame is written or fails");
            Future<Void> legitimate = world.send(to, 1, Buffer.buffer("after the flood"));
            Throwable rejected = Await.failure(legitimate, WAIT);
            long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();

            Map<String, Long> stats = stats(receiver);
            assertThat(stats.get("parked")).as("payload bytes parked for context 777")
                    .isPositive().isLessThanOrEqualTo(stats.get("window"));
            assertThat(stats.get("held")).isLessThanOrEqualTo(stats.get("window"));
            assertThat(stats.get("rejected")).isGreaterThan(MESSAGES / 2);
            assertThat(rejected).isInstanceOf(MessageRejectedException.class)
                    .hasMessageContaining("rank " + to).hasMessageContaining("beyond the 8388608 bytes of credit");
            System.out.println("sender's next send failed: " + rejected.getMessage());
            assertThat(receiver.watchedLines()).as("rejection log lines (at most about one a second)")
                    .isPositive().isLessThanOrEqualTo((int) seconds + 3);

            receiver.send("EXIT");
            receiver.await("CLOSED", WAIT);
            assertThat(receiver.awaitExit(WAIT)).as("exit code (3: OutOfMemoryError)").isZero();
            Await.result(node.close(), WAIT);
        } finally {
            Await.result(vertx.close(), WAIT);
        }
    }
}
