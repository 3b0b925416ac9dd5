package dev.canopy.multicast.internal.reliable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sender-side bundling: small messages that wait at a root share a packet (one sequence number), and
 * receivers get them exactly once, in order, byte-identical, also when bundles are lost, duplicated,
 * reordered and retransmitted.
 */
@Timeout(60)
class BundlingTest {

    private static final CommunicatorId NINE = new CommunicatorId(42, 9);
    private static final int MTU = 140;
    private static final int CAPACITY = MTU - PacketCodec.HEADER_BYTES;

    @Test
    void smallMessagesArePackedBehindALoneOneAndUnpackedInOrder() {
        byte[] slot = new byte[MTU];
        int length = single(slot, "first");
        length = PacketCodec.appendToBundle(slot, length, Buffer.buffer(""), MTU);
        length = PacketCodec.appendToBundle(slot, length, Buffer.buffer("third"), MTU);
        ByteBuffer bundle = ByteBuffer.wrap(slot, 0, length);

        assertThat(PacketCodec.validate(bundle, NINE, 4, CAPACITY, 1_000)).isNull();
        assertThat(PacketCodec.type(bundle)).isEqualTo(PacketCodec.BUNDLE);
        assertThat(PacketCodec.sequence(bundle)).isEqualTo(5);
        assertThat(PacketCodec.bundleCount(bundle)).isEqualTo(3);
        assertThat(unpack(bundle)).containsExactly("first", "", "third");
    }

    @Test
    void onlyWholeMessagesThatFitTheMtuAreBundled() {
        byte[] slot = new byte[MTU];
        int length = single(slot, "x".repeat(80));
        byte[] before = slot.clone();
        assertThat(PacketCodec.appendToBundle(slot, length, Buffer.buffer("y".repeat(30)), MTU)).isEqualTo(-1);
        assertThat(slot).isEqualTo(before);
        assertThat(PacketCodec.appendToBundle(slot, length, Buffer.buffer("y".repeat(12)), MTU)).isEqualTo(MTU);

        byte[] fragment = new byte[MTU];
        PacketCodec.writeData(ByteBuffer.wrap(fragment), NINE, 2, 5, 3 * CAPACITY, 0);
        assertThat(PacketCodec.appendToBundle(fragment, MTU, Buffer.buffer("z"), 2 * MTU)).isEqualTo(-1);
    }

    @Test
    void aBundleInTheMiddleOfAFragmentedMessageIsABrokenRoot() {
        Reassembly reassembly = new Reassembly();
        byte[] first = new byte[MTU];
        PacketCodec.writeData(ByteBuffer.wrap(first), NINE, 2, 5, 2 * CAPACITY, 0);
        reassembly.accept(ByteBuffer.wrap(first), 2, message -> { });
        byte[] slot = new byte[MTU];
        int length = PacketCodec.appendToBundle(slot, single(slot, "a"), Buffer.buffer("b"), MTU);
        assertThatThrownBy(() -> reassembly.accept(ByteBuffer.wrap(slot, 0, length), 2, message -> { }))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("root 2 packet 5 is a bundle");
    }

    @Test
    void hostileBundleCountsAndLengthsAreNamed() {
        byte[] slot = new byte[MTU];
        int length = PacketCodec.appendToBundle(slot, single(slot, "ab"), Buffer.buffer("cd"), MTU);
        ByteBuffer bundle = ByteBuffer.wrap(slot, 0, length);
        bundle.putInt(PacketCodec.BUNDLE_COUNT_OFFSET, 3);
        assertThat(PacketCodec.validate(bundle, NINE, 4, CAPACITY, 1_000)).contains("starts past");
        bundle.putInt(PacketCodec.BUNDLE_COUNT_OFFSET, 1_000_000);
        assertThat(PacketCodec.validate(bundle, NINE, 4, CAPACITY, 1_000)).contains("out of range");
        bundle.putInt(PacketCodec.BUNDLE_COUNT_OFFSET, 0);
        assertThat(PacketCodec.validate(bundle, NINE, 4, CAPACITY, 1_000)).contains("out of range");
        bundle.putInt(PacketCodec.BUNDLE_COUNT_OFFSET, 1);
        assertThat(PacketCodec.validate(bundle, NINE, 4, CAPACITY, 1_000)).contains("ends at byte 46");
        bundle.putInt(PacketCodec.BUNDLE_COUNT_OFFSET, 2).putInt(PacketCodec.HEADER_BYTES, -1);
        assertThat(PacketCodec.validate(bundle, NINE, 4, CAPACITY, 1_000)).contains("message 0 of -1 bytes");
        bundle.putInt(PacketCodec.HEADER_BYTES, 2).putInt(PacketCodec.HEADER_BYTES + 6, 3);
        assertThat(PacketCodec.validate(bundle, NINE, 4, CAPACITY, 1_000)).contains("message 1 of 3 bytes");
        bundle.putInt(PacketCodec.HEADER_BYTES + 6, 2).putInt(PacketCodec.FRAGMENT_OFFSET_OFFSET, 7);
        assertThat(PacketCodec.validate(bundle, NINE, 4, CAPACITY, 1_000)).contains("out of range");
    }

    /**
     * One root streams mostly small messages back to back: they wait for credits, get bundled, and still arrive
     * exactly once, in order, byte-identical ({@link ReliableMulticastSimulationTest#runOne} checks).
     */
    @Test
    void bundlesSurviveLossDuplicationAndReordering() {
        for (double faults : new double[] {0, 0.05, 0.20}) {
            long seed = Long.getLong("canopy.seed", System.nanoTime());
            System.out.println("BundlingTest seed: " + seed + " (replay with -Dcanopy.seed=" + seed + ")");
            SimulatedGroup group = new SimulatedGroup(new SimulatedGroup.Settings(8, 3, faults, 0, 0, 1, 4_000,
                    ReliableMulticastSimulationTest.SIMULATED, seed, 0));
            System.out.println(ReliableMulticastSimulationTest.runOne(group) + ", " + group.unbundledPackets()
                    + " packets without bundling");
            // Without faults the root mostly waits for credits, with unsent packets to pack into; with heavy loss it
            // mostly waits for a free buffer with every packet already sent, and bundles less.
            long packets = group.totalStats().packetsMulticast();
            assertThat(packets).as("packets multicast, faults %s, seed %d", faults, seed)
                    .isLessThan(faults == 0 ? group.unbundledPackets() * 9 / 10 : group.unbundledPackets());
        }
    }

    private static int single(byte[] slot, String message) {
        byte[] bytes = message.getBytes();
        PacketCodec.writeData(ByteBuffer.wrap(slot), NINE, 2, 5, bytes.length, 0);
        System.arraycopy(bytes, 0, slot, PacketCodec.HEADER_BYTES, bytes.length);
        return PacketCodec.HEADER_BYTES + bytes.length;
    }

    private static List<String> unpack(ByteBuffer packet) {
        List<String> messages = new ArrayList<>();
        new Reassembly().accept(packet, 2, message -> messages.add(message.toString()));
        return messages;
    }
}
