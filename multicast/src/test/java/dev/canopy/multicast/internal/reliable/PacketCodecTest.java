package dev.canopy.multicast.internal.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class PacketCodecTest {

    private static final int CAPACITY = 100;
    private static final CommunicatorId NINE = new CommunicatorId(42, 9);

    @Test
    void fieldsRoundTrip() {
        ByteBuffer data = ByteBuffer.allocate(PacketCodec.HEADER_BYTES + 50);
        PacketCodec.writeData(data, NINE, 2, 77, 250, 200);
        assertThat(PacketCodec.validate(data, NINE, 4, CAPACITY, 1_000)).isNull();
        assertThat(PacketCodec.sequence(data)).isEqualTo(77);
        assertThat(PacketCodec.messageLength(data)).isEqualTo(250);
        assertThat(PacketCodec.fragmentOffset(data)).isEqualTo(200);
        assertThat(PacketCodec.fragmentLength(data)).isEqualTo(50);

        ByteBuffer feedback = ByteBuffer.wrap(PacketCodec.feedback(NINE, 2, 3, 40, 72));
        assertThat(PacketCodec.validate(feedback, NINE, 4, CAPACITY, 1_000)).isNull();
        assertThat(PacketCodec.ackedUpTo(feedback)).isEqualTo(40);
        assertThat(PacketCodec.creditLimit(feedback)).isEqualTo(72);

        ByteBuffer nak = ByteBuffer.wrap(PacketCodec.nak(NINE, 2, 3, 40, 72, 43));
        assertThat(PacketCodec.validate(nak, NINE, 4, CAPACITY, 1_000)).isNull();
        assertThat(PacketCodec.ackedUpTo(nak)).isEqualTo(40);
        assertThat(PacketCodec.creditLimit(nak)).isEqualTo(72);
        assertThat(PacketCodec.missingUpTo(nak)).isEqualTo(43);

        ByteBuffer abort = ByteBuffer.wrap(PacketCodec.abort(NINE, 1, 3, "node-3", "its session expired"));
        assertThat(PacketCodec.validate(abort, NINE, 4, CAPACITY, 1_000)).isNull();
        assertThat(PacketCodec.failedRank(abort)).isEqualTo(3);
        assertThat(PacketCodec.failedNode(abort)).isEqualTo("node-3");
        assertThat(PacketCodec.abortReason(abort)).isEqualTo("its session expired");
    }

    @Test
    void fragmentsMustFitTheirMessage() {
        assertThat(problem(250, 200, 40)).contains("40 bytes at offset 200 of 250 where 50 are due");
        assertThat(problem(250, 150, 100)).contains("out of range"); // not on a fragment boundary
        assertThat(problem(2_000, 0, 100)).contains("at most 1000");
        assertThat(problem(0, 0, 0)).isNull();
        assertThat(problem(100, 100, 0)).contains("out of range");
    }

    @Test
    void foreignAndBrokenPacketsAreNamed() {
        ByteBuffer data = ByteBuffer.allocate(PacketCodec.HEADER_BYTES);
        PacketCodec.writeData(data, NINE, 2, 0, 0, 0);
        assertThat(PacketCodec.validate(data, new CommunicatorId(42, 8), 4, CAPACITY, 1_000)).contains("context 9");
        assertThat(PacketCodec.validate(data, new CommunicatorId(43, 9), 4, CAPACITY, 1_000)).contains("of job 2a");
        assertThat(PacketCodec.validate(data, NINE, 2, CAPACITY, 1_000)).contains("root 2");
        assertThat(PacketCodec.validate(ByteBuffer.allocate(10), NINE, 4, CAPACITY, 1_000)).contains("shorter");
        data.put(PacketCodec.TYPE_OFFSET, (byte) 42);
        assertThat(PacketCodec.validate(data, NINE, 4, CAPACITY, 1_000)).contains("unknown type 42");
    }

    @Test
    void aNakMustAskForAtLeastOnePacket() {
        assertThat(PacketCodec.validate(ByteBuffer.wrap(PacketCodec.nak(NINE, 2, 3, 40, 72, 40)), NINE, 4, CAPACITY,
                1_000)).contains("NAK with acked 40, credit 72, missing up to 40");
        assertThat(PacketCodec.validate(ByteBuffer.wrap(PacketCodec.nak(NINE, 2, 3, -1, 72, 5)), NINE, 4, CAPACITY,
                1_000)).contains("NAK");
        ByteBuffer cut = ByteBuffer.wrap(PacketCodec.nak(NINE, 2, 3, 40, 72, 41), 0, PacketCodec.FEEDBACK_BYTES);
        assertThat(PacketCodec.validate(cut, NINE, 4, CAPACITY, 1_000)).contains("NAK of 40 bytes where 48 are due");
    }

    @Test
    void randomBytesAreRejectedOrValidNeverAnException() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 100_000; i++) {
            byte[] bytes = new byte[random.nextInt(80)];
            random.nextBytes(bytes);
            if (bytes.length >= 4 && random.nextBoolean()) {
                bytes[0] = 0x43;
                bytes[1] = 0x4D;
                bytes[2] = 1;
                bytes[3] = (byte) (1 + random.nextInt(6));
            }
            ByteBuffer packet = ByteBuffer.wrap(bytes);
            String problem = PacketCodec.validate(packet, new CommunicatorId(0, 0), 4, CAPACITY, 1_000);
            if (problem == null && PacketCodec.type(packet) == PacketCodec.ABORT) {
                PacketCodec.failedNode(packet);
                PacketCodec.abortReason(packet);
            }
            if (problem == null && PacketCodec.type(packet) == PacketCodec.BATCH) {
                PacketCodec.forEachInBatch(packet, PacketCodec::sequence);
            }
        }
    }

    /**
     * Valid batches with random bytes changed or cut off: rejected with a reason, or split into valid DATA packets
     * that fill the datagram exactly; never an exception.
     */
    @Test
    void mutatedBatchesAreRejectedOrSplitNeverAnException() {
        long seed = Long.getLong("canopy.seed", System.nanoTime());
        System.out.println("PacketCodecTest batch fuzz seed: " + seed + " (replay with -Dcanopy.seed=" + seed + ")");
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 50_000; i++) {
            ByteBuffer batch = BundlingTest.batch(NINE, 2, i, 2 + random.nextInt(4), random.nextInt(CAPACITY + 1),
                    CAPACITY);
            byte[] bytes = batch.array();
            int length = batch.limit();
            for (int flips = random.nextInt(3); flips > 0; flips--) {
                int at = PacketCodec.SEQUENCE_OFFSET + random.nextInt(length - PacketCodec.SEQUENCE_OFFSET);
                bytes[at] = random.nextInt(4) == 0 ? (byte) 0xFF : (byte) random.nextInt(256);
            }
            ByteBuffer datagram = ByteBuffer.wrap(bytes, 0, random.nextInt(5) == 0 ? random.nextInt(length + 1) : length);
            String problem = PacketCodec.validate(datagram, NINE, 4, CAPACITY, 1_000);
            if (problem == null && PacketCodec.type(datagram) == PacketCodec.BATCH) {
                int[] packetBytes = {0};
                PacketCodec.forEachInBatch(datagram, packet -> {
                    assertThat(PacketCodec.validate(packet, NINE, 4, CAPACITY, 1_000)).as("seed %d", seed).isNull();
                    packetBytes[0] += packet.remaining();
                });
                int entryBytes = PacketCodec.ENTRY_LENGTH_BYTES * PacketCodec.batchCount(datagram);
                assertThat(packetBytes[0]).as("seed %d, batch %d", seed, i)
                        .isEqualTo(datagram.limit() - PacketCodec.HEADER_BYTES - entryBytes);
            }
        }
    }

    private static String problem(int messageLength, int offset, int fragment) {
        ByteBuffer data = ByteBuffer.allocate(PacketCodec.HEADER_BYTES + fragment);
        PacketCodec.writeData(data, NINE, 2, 0, messageLength, offset);
        return PacketCodec.validate(data, NINE, 4, CAPACITY, 1_000);
    }
}
