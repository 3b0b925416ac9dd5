package dev.canopy.core.node;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.Message;
import dev.canopy.core.internal.membership.MembershipEvent;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A node in its own JVM, driven by {@link MultiProcessJobTest} through stdin; it answers on stdout
 * with lines starting {@value #PREFIX}. Arguments: zookeeper job node-id site expected-size session-ms secret-file.
 * Commands: EXCHANGE (send to and receive from every other rank), RECV rank, SEND rank, EXIT.
 */
public final class JobMemberProcess {

    static final String PREFIX = "@@ ";
    private static final int EXCHANGE_TAG = 1;
    private static final int RECV_TAG = 2;
    private static final int SEND_TAG = 3;

    private JobMemberProcess() {
    }

    public static void main(String[] args) throws Exception {
        String site = args[3];
        NodeOptions options = NodeOptions.of(JobId.of(args[1]), NodeId.of(args[2]),
                        new Coordinates("wan", site, site + "-lan", site + "-c", "host-" + args[2]),
                        Integer.parseInt(args[4]), args[0], JobSecret.fromFile(Path.of(args[6])))
                .withSessionTimeout(Duration.ofMillis(Long.parseLong(args[5])));
        Vertx vertx = CanopyVertx.create();
        CanopyNode node = block(CanopyNode.start(vertx, options));
        node.onMembershipEvent(event -> {
            if (event.kind() == MembershipEvent.Kind.LEFT) {
                say("LEFT " + event.member().id() + " " + event.reason());
            }
        });
        Communicator world = block(node.join());
        say("JOINED " + world.rank() + " " + world.size() + " "
                + world.members().stream().map(m -> m.id().value()).collect(Collectors.joining(",")));

        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = commands.readLine(); line != null; line = commands.readLine()) {
            String[] command = line.trim().split(" ");
            switch (command[0]) {
                case "EXCHANGE" -> exchange(world);
                case "RECV" -> world.receive(Integer.parseInt(command[1]), RECV_TAG).onComplete(
                        message -> say("RECV_OK " + message.payload()),
                        failure -> say("RECV_FAILED " + failure.getMessage()));
                case "SEND" -> {
                    long start = System.nanoTime();
                    world.send(Integer.parseInt(command[1]), SEND_TAG, Buffer.buffer("late")).onComplete(
                            ok -> say("SEND_OK"),
                            failure -> say("SEND_FAILED " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
                                    + " " + failure.getClass().getSimpleName() + ": " + failure.getMessage()));
                }
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

    private static void exchange(Communicator world) {
        List<Future<?>> steps = new ArrayList<>();
        List<Future<Message>> received = new ArrayList<>();
        for (int r = 0; r < world.size(); r++) {
            if (r != world.rank()) {
                steps.add(world.send(r, EXCHANGE_TAG, Buffer.buffer("hello " + world.rank() + "->" + r)));
                Future<Message> message = world.receive(r, EXCHANGE_TAG);
                received.add(message);
                steps.add(message);
            }
        }
        Future.all(steps).onComplete(
                done -> say("EXCHANGED " + received.stream().map(f -> f.result().source() + ":" + f.result().payload())
                        .collect(Collectors.joining(";"))),
                failure -> say("EXCHANGE_FAILED " + failure.getMessage()));
    }

    private static <T> T block(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    private static void say(String line) {
        System.out.println(PREFIX + line);
        System.out.flush();
    }
}
