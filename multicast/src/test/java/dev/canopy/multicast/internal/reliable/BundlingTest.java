package dev.canopy.multicast.internal.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.multicast.internal.fabric.Fabric;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.fabric.SendOutcome;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdFabric;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.link.InProcessLinks;
import dev.canopy.multicast.internal.simulation.SimulatedLoop;
import dev.canopy.multicast.internal.simulation.Simulation;
import dev.canopy.multicast.internal.testing.Payloads;
import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sender-side bundling: bcasts that queue at a root while it sends leave together, several packets to a datagram (a
 * BATCH), each packet still with its own sequence number; receivers take a batch's packets in order. Malformed
 * batches are rejected whole with a reason, and cost nothing else.
 */
@Timeout(60)
class BundlingTest {

    private static final long MICROS = 1_000L;
    private static final CommunicatorId NINE = new CommunicatorId(42, 9);
    private static final int CAPACITY = 100;
    private static final int MEMBERS = 4;
    private static final int MESSAGES = 600;
    /** About how long the root's stream lasts in simulated time (without faults, runs printed 7 to 9 us). */
    private static final long STREAM_NANOS = 8 * MICROS;

    @Test
    void aBatchIsSplitIntoItsPacketsInOrder() {
        ByteBuffer batch = batch(NINE, 2, 5, 3, 17, CAPACITY);
        assertThat(PacketCodec.validate(batch, NINE, 4, CAPACITY, 1_000)).isNull();
        List<Long> sequences = new ArrayList<>();
        PacketCodec.forEachInBatch(batch, packet -> {
            assertThat(PacketCodec.validate(packet, NINE, 4, CAPACITY, 1_000)).isNull();
            assertThat(PacketCodec.fragmentLength(packet)).isEqualTo(17);
            sequences.add(PacketCodec.sequence(packet));
        });
        assertThat(sequences).containsExactly(5L, 6L, 7L);
    }

    /** Consecutive packets up to the MTU, never past the credit limit; a lone packet goes as it is. */
    @Test
    void theBundlerPacksConsecutivePacketsUpToTheMtu() {
        int mtu = 300;
        LeafWindow window = new LeafWindow(8, mtu, new int[] {1}, new RetransmitTimeout(1_000));
        int[] fragments = {10, 60, 100, 5, 200, 0};
        for (int i = 0; i < fragments.length; i++) {
            PacketCodec.writeData(window.claim(), NINE, 2, i, fragments[i], 0);
            window.commit(PacketCodec.HEADER_BYTES + fragments[i]);
        }
        Bundler bundler = new Bundler(mtu, NINE, 2);
        List<Integer> counts = new ArrayList<>();
        while (window.sent() < window.tail()) {
            int count = bundler.fitting(window, window.tail());
            ByteBuffer datagram = bundler.datagram(window, count);
            assertThat(datagram.remaining()).isLessThanOrEqualTo(mtu);
            assertThat(PacketCodec.validate(datagram, NINE, 4, mtu - PacketCodec.HEADER_BYTES, 1_000)).isNull();
            assertThat(PacketCodec.type(datagram)).isEqualTo(count == 1 ? PacketCodec.DATA : PacketCodec.BATCH);
            assertThat(PacketCodec.sequence(datagram)).isEqualTo(window.sent());
            counts.add(count);
            for (int i = 0; i < count; i++) {
                window.markSent(0);
            }
        }
        // 40 + (4+50) + (4+100) + (4+140) = 342 > 300: the first datagram holds two packets, and so on.
        assertThat(counts).containsExactly(2, 2, 1, 1);
        assertThat(new Bundler(mtu, NINE, 2).fitting(window, window.sent())).isZero();
    }

    @Test
    void malformedLengthFieldsAreNamed() {
        assertThat(problem(b -> b.putInt(PacketCodec.BATCH_COUNT_OFFSET, 1))).contains("of 1 packets").contains("range");
        assertThat(problem(b -> b.putInt(PacketCodec.BATCH_COUNT_OFFSET, -7))).contains("out of range");
        assertThat(problem(b -> b.putInt(PacketCodec.BATCH_COUNT_OFFSET, Integer.MAX_VALUE))).contains("out of range");
        assertThat(problem(b -> b.putInt(PacketCodec.BATCH_COUNT_OFFSET, 2))).contains("ends at byte");
        int first = PacketCodec.HEADER_BYTES;
        assertThat(problem(b -> b.putInt(first, -1))).contains("packet 0 of 3 claims -1 bytes");
        assertThat(problem(b -> b.putInt(first, 39))).contains("packet 0 of 3 claims 39 bytes");
        assertThat(problem(b -> b.putInt(first, 1 << 20))).contains("packet 0 of 3 claims 1048576 bytes");
        assertThat(problem(b -> b.putInt(first, 56))).contains("packet 0 of 3: DATA fragment of 16 bytes");
        int second = first + PacketCodec.ENTRY_LENGTH_BYTES + PacketCodec.HEADER_BYTES + 17;
        assertThat(problem(b -> b.putInt(second + PacketCodec.ENTRY_LENGTH_BYTES + PacketCodec.SEQUENCE_OFFSET, 0)
                .putInt(second + PacketCodec.ENTRY_LENGTH_BYTES + PacketCodec.SEQUENCE_OFFSET + 4, 9)))
                .contains("packet 1 of 3: sequence 9 where 6 is due");
        assertThat(problem(b -> b.putInt(second + PacketCodec.ENTRY_LENGTH_BYTES + PacketCodec.ROOT_OFFSET, 1)))
                .contains("packet 1 of 3: root 1 in a batch of root 2");
        assertThat(problem(b -> b.put(second + PacketCodec.ENTRY_LENGTH_BYTES + PacketCodec.TYPE_OFFSET,
                PacketCodec.BATCH))).contains("packet 1 of 3: type 6 where DATA is due");
        ByteBuffer cut = batch(NINE, 2, 5, 3, 17, CAPACITY);
        cut.limit(cut.limit() - 1);
        assertThat(PacketCodec.validate(cut, NINE, 4, CAPACITY, 1_000)).contains("packet 2 of 3 claims 57 bytes");
    }

    /**
     * A retransmission's run of sent packets, from the middle of the window, packs the same way: valid datagrams up to
     * the MTU, holding exactly the run's packets in order (what {@link BatchedRetransmitter} sends a leaf).
     */
    @Test
    void aHeldRunPacksIntoDatagramsOfExactlyItsPackets() {
        int mtu = 300;
        LeafWindow window = new LeafWindow(16, mtu, new int[] {1}, new RetransmitTimeout(1_000));
        for (int i = 0; i < 12; i++) {
            PacketCodec.writeData(window.claim(), NINE, 2, i, 30, 0);
            window.commit(PacketCodec.HEADER_BYTES + 30);
            window.markSent(0);
        }
        Bundler bundler = new Bundler(mtu, NINE, 2);
        List<Long> sequences = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (long first = 3; first < 11; ) {
            int count = bundler.fitting(window, first, 11);
            ByteBuffer datagram = bundler.datagram(window, first, count);
            assertThat(datagram.remaining()).isLessThanOrEqualTo(mtu);
            assertThat(PacketCodec.validate(datagram, NINE, 4, mtu - PacketCodec.HEADER_BYTES, 1_000)).isNull();
            if (count == 1) {
                sequences.add(PacketCodec.sequence(datagram));
            } else {
                PacketCodec.forEachInBatch(datagram, packet -> sequences.add(PacketCodec.sequence(packet)));
            }
            counts.add(count);
            first += count;
        }
        // 40 + 3 x (4 + 70) = 262 <= 300 < 336: three packets per datagram, then the last two.
        assertThat(counts).containsExactly(3, 3, 2);
        assertThat(sequences).containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
    }

    /**
     * The root issues 600 bcasts of 0 to 200 bytes (some of 2 to 3 packets) back to back, in one task: the first
     * leaves at once, the others queue while it is sent and leave bundled. Every receiver gets every message once, in
     * order, byte-identical; every message is its own packet (sequence number); datagrams are far fewer than packets.
     */
    @Test
    void backToBackBcastsShareDatagramsAndArriveExactInOrder() {
        for (double faults : new double[] {0, 0.05}) {
            long seed = Long.getLong("canopy.seed", System.nanoTime());
            System.out.println("BundlingTest seed: " + seed + ", faults " + faults + " (replay with -Dcanopy.seed="
                    + seed + ")");
            Group group = new Group(EmulatedUdOptions.faulty(faults, 2 * MICROS, 30 * MICROS, seed), seed);
            group.runToTheEnd(() -> { });
            long packets = group.root().stats().packetsMulticast();
            assertThat(packets).as("one packet per message and fragment, seed %d", seed).isEqualTo(group.packets());
            assertThat(group.rootSends.datagrams).as("datagrams for %d packets, seed %d", packets, seed)
                    .isLessThan(packets / 4);
            System.out.println("  " + packets + " packets in " + group.rootSends.datagrams + " datagrams, "
                    + group.root().stats().retransmissions() + " retransmissions, " + group.simulation.nanoTime() / MICROS
                    + " us simulated");
        }
    }

    /**
     * While the root streams, an intruder on the same fabric (with the job's key, so it passes every check but the
     * lengths) multicasts batches whose count or entry lengths are broken, with the stream's own sequence numbers:
     * each is rejected whole and counted, and every real message still arrives once, in order, byte-identical.
     */
    @Test
    void malformedBatchesAreRejectedAndNothingElseIsLost() {
        long seed = Long.getLong("canopy.seed", System.nanoTime());
        System.out.println("BundlingTest fuzz seed: " + seed + " (replay with -Dcanopy.seed=" + seed + ")");
        SplittableRandom random = new SplittableRandom(seed);
        Group group = new Group(EmulatedUdOptions.perfect(), seed);
        EmulatedUdFabric intruder = group.fabric.attach("intruder", group.simulation.newLoop("intruder"));
        intruder.join(SimulatedGroup.GROUP);
        int capacity = intruder.mtu() - PacketCodec.HEADER_BYTES;
        int injected = 200;
        group.runToTheEnd(() -> {
            for (int i = 0; i < injected; i++) {
                ByteBuffer batch = brokenLengths(batch(SimulatedGroup.COMMUNICATOR, 0, random.nextInt(MESSAGES),
                        2 + random.nextInt(5), random.nextInt(200), capacity), random);
                assertThat(PacketCodec.validate(batch, SimulatedGroup.COMMUNICATOR, MEMBERS, capacity, 1 << 20))
                        .as("seed %d", seed).startsWith("BATCH");
                group.simulation.at(group.simulation.nanoTime() + random.nextLong(STREAM_NANOS),
                        () -> intruder.send(SimulatedGroup.GROUP, batch.duplicate()));
            }
        });
        assertThat(group.simulation.runUntil(() -> group.members.stream().skip(1)
                .allMatch(member -> member.stats().malformedDropped() == injected), 1_000 * STREAM_NANOS))
                .as("every receiver rejected every broken batch, seed %d", seed).isTrue();
    }

    /** A valid BATCH of {@code count} DATA packets of {@code fragment} bytes each (one whole message each). */
    static ByteBuffer batch(CommunicatorId communicator, int root, long first, int count, int fragment, int capacity) {
        int entry = PacketCodec.HEADER_BYTES + Math.min(fragment, capacity);
        ByteBuffer out = ByteBuffer.allocate(PacketCodec.HEADER_BYTES + count * (PacketCodec.ENTRY_LENGTH_BYTES + entry));
        PacketCodec.writeBatchHeader(out, communicator, root, first, count);
        int position = PacketCodec.HEADER_BYTES;
        for (int i = 0; i < count; i++) {
            out.putInt(position, entry);
            PacketCodec.writeData(out.slice(position + PacketCodec.ENTRY_LENGTH_BYTES, entry), communicator, root,
                    first + i, entry - PacketCodec.HEADER_BYTES, 0);
            position += PacketCodec.ENTRY_LENGTH_BYTES + entry;
        }
        return out;
    }

    /** {@code batch} with its count or one entry's length replaced by another value. */
    private static ByteBuffer brokenLengths(ByteBuffer batch, SplittableRandom random) {
        int count = PacketCodec.batchCount(batch);
        int at = PacketCodec.BATCH_COUNT_OFFSET;
        int entry = random.nextInt(count + 1);
        int position = PacketCodec.HEADER_BYTES;
        for (int i = 0; i < entry && entry < count; i++) {
            position += PacketCodec.ENTRY_LENGTH_BYTES + batch.getInt(position);
        }
        if (entry < count) {
            at = position;
        }
        int old = batch.getInt(at);
        int broken;
        do {
            broken = switch (random.nextInt(3)) {
                case 0 -> old + random.nextInt(-8, 9);
                case 1 -> random.nextInt();
                default -> random.nextInt(batch.limit() + 1);
            };
        } while (broken == old);
        batch.putInt(at, broken);
        return batch;
    }

    private static String problem(Consumer<ByteBuffer> mutation) {
        ByteBuffer batch = batch(NINE, 2, 5, 3, 17, CAPACITY);
        mutation.accept(batch);
        return PacketCodec.validate(batch, NINE, 4, CAPACITY, 1_000);
    }

    /** {@value #MEMBERS} members on simulated time; rank 0 broadcasts {@value #MESSAGES} messages back to back. */
    private static final class Group {

        final Simulation simulation = new Simulation();
        final EmulatedUdSwitch fabric;
        final List<ReliableMulticast> members = new ArrayList<>();
        final List<SimulatedLoop> loops = new ArrayList<>();
        final CountingFabric rootSends;
        private final long seed;
        private final int[] sizes = new int[MESSAGES];

        Group(EmulatedUdOptions faults, long seed) {
            this.seed = seed;
            fabric = new EmulatedUdSwitch(faults, simulation, simulation.wire());
            for (int rank = 0; rank < MEMBERS; rank++) {
                loops.add(simulation.newLoop("member-" + rank));
            }
            InProcessLinks links = new InProcessLinks(loops, 5 * MICROS);
            rootSends = new CountingFabric(fabric.attach("member-0", loops.get(0)));
            for (int rank = 0; rank < MEMBERS; rank++) {
                Fabric endpoint = rank == 0 ? rootSends : fabric.attach("member-" + rank, loops.get(rank));
                members.add(ReliableMulticast.create(SimulatedGroup.COMMUNICATOR, SimulatedGroup.GROUP, endpoint,
                        links.link(rank), loops.get(rank), ReliableMulticastSimulationTest.SIMULATED
                                .withSubGroupSize(2).withWindow(1_024, 1_024)));
                members.get(rank).start();
            }
            SplittableRandom random = new SplittableRandom(seed);
            for (int k = 0; k < MESSAGES; k++) {
                sizes[k] = random.nextInt(20) == 0 ? 2_000 + random.nextInt(2_000) : random.nextInt(201);
            }
        }

        ReliableMulticast root() {
            return members.get(0);
        }

        long packets() {
            int fragment = fabric.options().mtu() - PacketCodec.HEADER_BYTES;
            return Arrays.stream(sizes).mapToLong(size -> Math.max(1, (size + fragment - 1) / fragment)).sum();
        }

        /** Posts the buffers, runs {@code meanwhile}, broadcasts, and checks every delivery and the drained windows. */
        void runToTheEnd(Runnable meanwhile) {
            assertThat(simulation.runUntil(() -> members.stream().allMatch(member ->
                    member.postedReceiveBuffers() == member.receiveBufferCount()), MICROS)).isTrue();
            List<List<String>> mismatches = new ArrayList<>();
            int[] received = new int[MEMBERS];
            for (int rank = 1; rank < MEMBERS; rank++) {
                List<String> wrong = new ArrayList<>();
                mismatches.add(wrong);
                ReliableMulticast member = members.get(rank);
                int r = rank;
                loops.get(rank).execute(() -> receiveFrom(member, 0, wrong, received, r));
            }
            meanwhile.run();
            loops.get(0).execute(() -> {
                for (int k = 0; k < MESSAGES; k++) {
                    root().broadcast(Buffer.buffer(Payloads.bytes(seed, k, sizes[k])));
                }
            });
            long deadline = simulation.nanoTime() + 60_000_000_000L;
            assertThat(simulation.runUntil(() -> Arrays.stream(received, 1, MEMBERS).allMatch(n -> n == MESSAGES)
                    && members.stream().allMatch(member -> member.windowSlotsInUse() == 0), deadline))
                    .as("every message delivered and every window drained, seed %d: %s", seed,
                            Arrays.toString(received)).isTrue();
            assertThat(mismatches).allSatisfy(wrong -> assertThat(wrong).as("seed %d", seed).isEmpty());
        }

        private void receiveFrom(ReliableMulticast member, int k, List<String> wrong, int[] received, int rank) {
            if (k == MESSAGES) {
                return;
            }
            member.receive(0).onSuccess(message -> {
                if (!Arrays.equals(message.getBytes(), Payloads.bytes(seed, k, sizes[k]))) {
                    wrong.add(Payloads.mismatch(seed, k, sizes[k], message));
                }
                received[rank] = k + 1;
                receiveFrom(member, k + 1, wrong, received, rank);
            });
        }
    }

    /** A fabric endpoint that counts the datagrams its owner sends. */
    private static final class CountingFabric extends ForwardingFabric {

        long datagrams;

        CountingFabric(Fabric fabric) {
            super(fabric);
        }

        @Override
        public SendOutcome send(MulticastGroup group, ByteBuffer datagram) {
            datagrams++;
            return fabric.send(group, datagram);
        }
    }
}
