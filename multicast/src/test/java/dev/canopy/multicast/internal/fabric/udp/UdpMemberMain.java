package dev.canopy.multicast.internal.fabric.udp;

import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.fabric.MulticastProbe;
import dev.canopy.multicast.internal.loop.VertxOwnerLoop;
import dev.canopy.multicast.internal.reliable.CommunicatorId;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import dev.canopy.multicast.internal.reliable.ReliableMulticast;
import dev.canopy.multicast.internal.testing.Payloads;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One member process of {@code UdpMulticastNamespaceTest}, started inside its host's network namespace:
 * the substrate over the real {@code udp} fabric and a TCP link. It prints READY once it listens and
 * has posted its buffers; on GO (from stdin) it probes whether multicast works between the hosts (prints
 * PROBE and the result), runs the broadcast program, prints DONE (or ERROR) once its
 * program finished and its windows are empty, and exits on EXIT.
 *
 * <p>Arguments: rank, size, messages, seed.
 */
public final class UdpMemberMain {

    static final int LINK_PORT = 45_800;
    /** The datagrams the bcast layer uses by default (the largest UDP payload, IP-fragmented). */
    private static final int MTU = UdpFabricOptions.MAX_MTU;
    /** A packet's message bytes at that MTU (less the substrate's 40-byte header). */
    private static final int FRAGMENT = MTU - 40;
    /** Every size class: empty, tiny, 1 KB, 8 KB, across packet boundaries, 64 KiB, 256 KiB. */
    static final int[] SIZES = {0, 8, 1024, 8192, FRAGMENT, FRAGMENT + 1, 65_536, 2 * FRAGMENT, 262_144};

    private UdpMemberMain() {
    }

    public static void main(String[] args) throws Exception {
        int rank = Integer.parseInt(args[0]);
        int size = Integer.parseInt(args[1]);
        int messages = Integer.parseInt(args[2]);
        long seed = Long.parseLong(args[3]);
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            addresses.add(NetworkNamespaces.addressOf(i));
        }
        Vertx vertx = Vertx.vertx();
        Context context = vertx.getOrCreateContext();
        VertxOwnerLoop loop = new VertxOwnerLoop(vertx, context);
        ReliableMulticast[] member = new ReliableMulticast[1];
        // Opening sockets and finding the interface may block: here on the main thread, not on the event loop.
        UdpMulticastFabric fabric = UdpMulticastFabric.open(
                UdpFabricOptions.on(InetAddress.getByName(addresses.get(rank))).withMtu(MTU), loop);
        context.runOnContext(ignored -> {
            try {
                TcpTestLink link = new TcpTestLink(vertx, rank, addresses, LINK_PORT);
                member[0] = ReliableMulticast.create(new CommunicatorId(0x5EED_CAFEL, 7), new MulticastGroup(7), fabric, link, loop,
                        MulticastOptions.DEFAULTS.withSubGroupSize(2).withTimeouts(Duration.ofMillis(1), Duration.ofMillis(10)));
                link.listen().onComplete(listening -> {
                    if (listening.failed()) {
                        print("ERROR listen: " + listening.cause());
                        return;
                    }
                    member[0].start();
                    loop.execute(() -> print("READY"));
                });
            } catch (Exception e) {
                print("ERROR start: " + e);
            }
        });
        UdpMulticastFabric probeEndpoint = UdpMulticastFabric.open(
                UdpFabricOptions.on(InetAddress.getByName(addresses.get(rank))), loop);
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if ("GO".equals(stdin.readLine())) {
            // Everyone starts together: first check that multicast works between the hosts, then broadcast.
            MulticastProbe.run(probeEndpoint, new MulticastGroup(8), 0x5EED_CAFEL, rank, size, loop, Duration.ofSeconds(1), 5)
                    .onComplete(probe -> {
                        probeEndpoint.close();
                        print("PROBE " + (probe.succeeded() ? probe.result() : "failed: " + probe.cause()));
                        step(member[0], loop, vertx, rank, size, messages, seed, 0, new SplittableRandom(seed));
                    });
        }
        while (!"EXIT".equals(stdin.readLine())) {
            // wait for the test to let every member go
        }
        vertx.close().toCompletionStage().toCompletableFuture().get();
    }

    private static void step(ReliableMulticast member, VertxOwnerLoop loop, Vertx vertx, int rank, int size,
                             int messages, long seed, int k, SplittableRandom program) {
        if (k == messages) {
            vertx.setPeriodic(10, id -> {
                if (member.windowSlotsInUse() == 0 && member.queuedMessages() == 0) {
                    vertx.cancelTimer(id);
                    print("DONE " + messages + " fromFabric=" + member.stats().packetsFromFabric() + " " + member.stats());
                }
            });
            return;
        }
        int root = program.nextInt(size);
        int bytes = SIZES[program.nextInt(SIZES.length)];
        Future<?> operation = root == rank ? member.broadcast(Payloads.of(seed, k, bytes))
                : member.receive(root).map(message -> {
                    String mismatch = Payloads.mismatch(seed, k, bytes, message);
                    if (mismatch != null) {
                        throw new IllegalStateException(mismatch);
                    }
                    return message;
                });
        operation.onComplete(result -> {
            if (result.failed()) {
                print("ERROR message " + k + " from root " + root + ": " + result.cause());
                return;
            }
            step(member, loop, vertx, rank, size, messages, seed, k + 1, program);
        });
    }

    private static void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
