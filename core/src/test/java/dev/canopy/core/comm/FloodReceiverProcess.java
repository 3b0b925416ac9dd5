package dev.canopy.core.comm;

import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The receiving node of {@link FloodTest}, in its own small-heap JVM, with default message limits.
 * Arguments: zookeeper job node-id. Driven through stdin, it answers on stdout with lines starting
 * {@value #PREFIX}. Commands: STATS; RECEIVE source count size (receives count numbered messages of
 * tag 1 from source, at most 8 posted at once, and checks each one); EXIT.
 */
public final class FloodReceiverProcess {

    static final String PREFIX = "@@ ";
    static final int TAG = 1;
    private static final int POSTED = 8;

    private FloodReceiverProcess() {
    }

    public static void main(String[] args) throws Exception {
        NodeOptions options = NodeOptions.of(JobId.of(args[1]), NodeId.of(args[2]),
                new Coordinates("wan", "site", "lan", "cluster", "host-" + args[2]), 2, args[0],
                JobSecret.fromFile(Path.of(args[3])));
        Vertx vertx = Vertx.vertx();
        CanopyNode node = block(CanopyNode.start(vertx, options));
        GroupCommunicator world = (GroupCommunicator) block(node.join());
        CommunicatorRuntime runtime = world.runtime();
        say("JOINED " + world.rank());

        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = commands.readLine(); line != null; line = commands.readLine()) {
            String[] command = line.trim().split(" ");
            switch (command[0]) {
                case "STATS" -> say(block(runtime.onContext(() -> Future.succeededFuture(stats(runtime, world)))));
                case "RECEIVE" -> receive(world, Integer.parseInt(command[1]), Integer.parseInt(command[2]),
                        Integer.parseInt(command[3]));
                case "EXIT" -> {
                    block(node.close());
                    block(vertx.close());
                    say("CLOSED");
                    return;
                }
                default -> say("UNKNOWN " + line);
            }
        }
    }

    private static String stats(CommunicatorRuntime runtime, GroupCommunicator world) {
        int peer = 1 - world.rank();
        System.gc();
        Runtime heap = Runtime.getRuntime();
        return "STATS held=" + runtime.inbound().held(peer) + " fetched=" + runtime.inbound().fetched(peer) + " highWater=" + runtime.inbound().highWaterPerPeer()
                + " window=" + runtime.inbound().window() + " queued=" + world.queuedMessages()
                + " payloads=" + world.queuedUserPayloads() + " fetching=" + world.userFetchesInFlight()
                + " parked=" + runtime.router().parkedBytes() + " rejected=" + runtime.rejectedFrames()
                + " heapUsed=" + (heap.totalMemory() - heap.freeMemory()) + " heapMax=" + heap.maxMemory();
    }

    /** Receives {@code count} messages with at most {@value #POSTED} receives posted, checking order and content. */
    private static void receive(Communicator world, int source, int count, int size) {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger received = new AtomicInteger();
        Promise<Void> done = Promise.promise();
        // Posted on the communicator's context, like the ones posted by completions, so they match in index order.
        world.context().runOnContext(v -> {
            for (int i = 0; i < Math.min(POSTED, count); i++) {
                receiveOne(world, source, count, size, next.getAndIncrement(), next, received, done);
            }
        });
        done.future().onComplete(ok -> say("RECEIVED " + count), failure -> say("RECEIVE_FAILED " + failure));
    }

    /** Receive number {@code expected}: receives match in the order they are posted, whenever they complete. */
    private static void receiveOne(Communicator world, int source, int count, int size, int expected,
            AtomicInteger next, AtomicInteger received, Promise<Void> done) {
        world.receive(source, TAG).onComplete(message -> {
            try {
                int index = FlowControlTest.indexOf(message.payload(), size);
                if (index != expected) {
                    done.tryFail("message " + index + " arrived where " + expected + " was due");
                    return;
                }
            } catch (AssertionError e) {
                done.tryFail(e);
                return;
            }
            if (received.incrementAndGet() == count) {
                done.tryComplete();
            }
            int mine = next.getAndIncrement();
            if (mine < count) {
                receiveOne(world, source, count, size, mine, next, received, done);
            }
        }, done::tryFail);
    }

    private static <T> T block(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    static void say(String line) {
        System.out.println(PREFIX + line);
        System.out.flush();
    }
}
