package dev.canopy.multicast.internal.reliable;

import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdFabric;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdStats;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.link.InProcessLinks;
import dev.canopy.multicast.internal.simulation.SimulatedLoop;
import dev.canopy.multicast.internal.simulation.Simulation;
import dev.canopy.multicast.internal.testing.Payloads;
import io.vertx.core.AsyncResult;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A communicator of simulated members on the emulated UD fabric running a broadcast program: the same
 * seeded sequence of (root, size) on every member, MPI style. A root broadcasts its messages; every
 * other member receives each one from its root and checks it byte by byte; after each operation a
 * member may compute for a random time (process skew). Some members may start, and so post their
 * receive buffers, late.
 */
final class SimulatedGroup {

    static final CommunicatorId COMMUNICATOR = new CommunicatorId(0x5EED_CAFEL, 7);
    static final MulticastGroup GROUP = new MulticastGroup(7);
    static final long MICROS = 1_000L;

    /**
     * One run's settings; faults is the probability of loss, of duplication and of reordering alike; every
     * message has a random root, or {@code onlyRoot} when that is 0 or more.
     */
    record Settings(int members, int subGroupSize, double faults, long skewMaxNanos, int latePosters,
                    long lateMaxNanos, int messages, MulticastOptions options, long seed, int onlyRoot) {

        @Override
        public String toString() {
            return members + " members, sub-groups of " + (subGroupSize == 0 ? "model" : subGroupSize) + ", faults "
                    + faults + ", skew " + skewMaxNanos / MICROS + " us, " + latePosters + " late posters, "
                    + messages + " messages, seed " + seed;
        }
    }

    final Settings settings;
    final Simulation simulation = new Simulation();
    final EmulatedUdSwitch fabric;
    final InProcessLinks links;
    final List<SimulatedLoop> loops = new ArrayList<>();
    final List<ReliableMulticast> members = new ArrayList<>();
    final List<EmulatedUdFabric> endpoints = new ArrayList<>();
    private final int[] roots;
    private final int[] sizes;
    private final int[] progress;
    private final Throwable[] failures;
    private final List<String> errors = new ArrayList<>();
    /** Message contents, made once and kept until every receiver has checked them. */
    private final Map<Integer, byte[]> expected = new HashMap<>();
    private final Map<Integer, Integer> checksLeft = new HashMap<>();

    SimulatedGroup(Settings settings) {
        this.settings = settings;
        int n = settings.members();
        fabric = new EmulatedUdSwitch(EmulatedUdOptions.faulty(settings.faults(), 2 * MICROS, 30 * MICROS,
                settings.seed()), simulation, simulation.wire());
        for (int i = 0; i < n; i++) {
            loops.add(simulation.newLoop("member-" + i));
        }
        links = new InProcessLinks(loops, 5 * MICROS);
        MulticastOptions options = settings.options().withSubGroupSize(settings.subGroupSize());
        for (int i = 0; i < n; i++) {
            endpoints.add(fabric.attach("member-" + i, loops.get(i)));
            members.add(ReliableMulticast.create(COMMUNICATOR, GROUP, endpoints.get(i), links.link(i), loops.get(i), options));
        }
        SplittableRandom random = new SplittableRandom(settings.seed());
        roots = new int[settings.messages()];
        sizes = new int[settings.messages()];
        for (int k = 0; k < roots.length; k++) {
            roots[k] = settings.onlyRoot() >= 0 ? settings.onlyRoot() : random.nextInt(n);
            sizes[k] = size(random);
        }
        progress = new int[n];
        failures = new Throwable[n];
    }

    /** Mostly small messages, some exactly at fragment boundaries, a few up to 64 KiB. */
    private static int size(SplittableRandom random) {
        int bucket = random.nextInt(100);
        int fragment = EmulatedUdOptions.DEFAULT_WIRE_MTU - EmulatedUdOptions.DEFAULT_HEADER_OVERHEAD
                - PacketCodec.HEADER_BYTES;
        if (bucket < 60) {
            return random.nextInt(65);
        } else if (bucket < 85) {
            return 65 + random.nextInt(fragment - 64);
        } else if (bucket < 94) {
            return fragment * (1 + random.nextInt(2)) + random.nextInt(3) - 1;
        } else if (bucket < 99) {
            return 2 * fragment + random.nextInt(14 * 1024);
        }
        return 16 * 1024 + random.nextInt(48 * 1024 + 1);
    }

    /** Starts every member's program; late posters are busy for a while first, so their buffers come late. */
    void start() {
        SplittableRandom random = new SplittableRandom(settings.seed() ^ 0x5DEECE66DL);
        for (int i = 0; i < settings.members(); i++) {
            if (i >= settings.members() - settings.latePosters()) {
                loops.get(i).busyFor(1 + random.nextLong(settings.lateMaxNanos()));
            }
            members.get(i).start();
            int member = i;
            SplittableRandom skew = new SplittableRandom(settings.seed() * 31 + i);
            loops.get(i).execute(() -> step(member, skew));
        }
    }

    boolean finished() {
        for (int i = 0; i < progress.length; i++) {
            if (progress[i] < roots.length && failures[i] == null && !loops.get(i).isDead()) {
                return false;
            }
        }
        return true;
    }

    /** Every window empty and every receive buffer posted again: nothing held, nothing leaked. */
    boolean quiescent() {
        for (int i = 0; i < members.size(); i++) {
            ReliableMulticast member = members.get(i);
            if (!loops.get(i).isDead() && (member.windowSlotsInUse() > 0
                    || member.postedReceiveBuffers() != member.receiveBufferCount())) {
                return false;
            }
        }
        return true;
    }

    /** {@code rank} crashes: its process stops, its fabric endpoint goes, and reliable sends to it fail. */
    void kill(int rank) {
        loops.get(rank).kill();
        endpoints.get(rank).close();
        links.fail(rank, "killed by the test");
    }

    int progress(int member) {
        return progress[member];
    }

    Throwable failure(int member) {
        return failures[member];
    }

    List<String> errors() {
        return errors;
    }

    int messages() {
        return roots.length;
    }

    MulticastStats totalStats() {
        return members.stream().map(ReliableMulticast::stats).reduce(MulticastStats::plus).orElseThrow();
    }

    /** The packets the messages take, a message's fragments in packets of their own (bundling shares datagrams). */
    long packetsOfMessages() {
        int fragment = EmulatedUdOptions.DEFAULT_WIRE_MTU - EmulatedUdOptions.DEFAULT_HEADER_OVERHEAD
                - PacketCodec.HEADER_BYTES;
        long packets = 0;
        for (int size : sizes) {
            packets += Math.max(1, (size + fragment - 1) / fragment);
        }
        return packets;
    }

    EmulatedUdStats fabricStats() {
        return fabric.stats();
    }

    private void step(int member, SplittableRandom skew) {
        int k = progress[member];
        if (k == roots.length) {
            return;
        }
        if (roots[k] == member) {
            members.get(member).broadcast(Buffer.buffer(expected(k)))
                    .onComplete(result -> done(member, k, result, skew));
        } else {
            members.get(member).receive(roots[k]).onComplete(result -> {
                if (result.succeeded()) {
                    String mismatch = Arrays.equals(result.result().getBytes(), expected(k)) ? null
                            : Payloads.mismatch(settings.seed(), k, sizes[k], result.result());
                    if (checksLeft.merge(k, -1, Integer::sum) == 0) {
                        expected.remove(k);
                        checksLeft.remove(k);
                    }
                    if (mismatch != null) {
                        errors.add("member " + member + " from root " + roots[k] + ": " + mismatch);
                        failures[member] = new AssertionError(mismatch);
                        return;
                    }
                }
                done(member, k, result, skew);
            });
        }
    }

    private byte[] expected(int k) {
        return expected.computeIfAbsent(k, message -> {
            checksLeft.put(message, settings.members() - 1);
            return Payloads.bytes(settings.seed(), message, sizes[message]);
        });
    }

    private void done(int member, int k, AsyncResult<?> result, SplittableRandom skew) {
        if (result.failed()) {
            failures[member] = result.cause();
            return;
        }
        progress[member] = k + 1;
        if (settings.skewMaxNanos() > 0) {
            loops.get(member).busyFor(skew.nextLong(settings.skewMaxNanos() + 1));
        }
        loops.get(member).execute(() -> step(member, skew));
    }
}
