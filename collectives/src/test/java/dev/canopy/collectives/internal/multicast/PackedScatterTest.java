package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.data.MalformedMessageException;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class PackedScatterTest {

    private static final List<Buffer> PIECES = List.of(Buffer.buffer("ab"), Buffer.buffer(), Buffer.buffer("cde"));

    @Test
    void everyRankCopiesOutItsOwnPiece() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<Buffer> pieces = new ArrayList<>();
        for (int rank = 0; rank < 7; rank++) {
            byte[] bytes = new byte[random.nextInt(3) == 0 ? 0 : random.nextInt(5000)];
            random.nextBytes(bytes);
            pieces.add(Buffer.buffer(bytes));
        }
        Buffer packed = PackedScatter.pack(pieces);
        for (int rank = 0; rank < pieces.size(); rank++) {
            PackedScatter.Received received = PackedScatter.unpack(packed, pieces.size(), rank);
            assertThat(received.byTree()).isFalse();
            assertThat(received.piece().getBytes()).as("rank %d, seed %d", rank, seed).isEqualTo(pieces.get(rank).getBytes());
        }
        assertThat(PackedScatter.unpack(PackedScatter.byTree(), 7, 3).byTree()).isTrue();
    }

    @Test
    void hostileHeadersAreRejectedBeforeUse() {
        Buffer good = PackedScatter.pack(PIECES);
        assertRejected(null, 3, 0, "missing");
        assertRejected(good.getBuffer(0, 8), 3, 0, "shorter than its 9-byte header");
        assertRejected(with(good, 0, 0x12345678), 3, 0, "not the magic");
        assertRejected(withByte(good, PackedScatter.KIND_OFFSET, (byte) 9), 3, 0, "unknown kind 9");
        assertRejected(good, 4, 0, "holds 3 pieces for a communicator of 4 members");
        assertRejected(with(good, PackedScatter.COUNT_OFFSET, Integer.MAX_VALUE), 3, 0, "holds 2147483647 pieces");
        assertRejected(with(good, PackedScatter.COUNT_OFFSET, -1), 3, 0, "holds -1 pieces");
        assertRejected(good, 3, 3, "no piece for rank 3");
        assertRejected(good.getBuffer(0, 14), 3, 0, "shorter than its 21-byte header of 3 lengths");
        assertRejected(with(good, PackedScatter.LENGTHS_OFFSET + 4, -5), 3, 0, "piece 1 the negative length -5");
        assertRejected(with(good, PackedScatter.LENGTHS_OFFSET, Integer.MAX_VALUE), 3, 2, "announces");
        assertRejected(good.copy().appendByte((byte) 1), 3, 0, "announces 5 bytes of pieces but carries 6");
        assertRejected(good.getBuffer(0, good.length() - 1), 3, 0, "announces 5 bytes of pieces but carries 4");
        assertRejected(with(PackedScatter.byTree(), PackedScatter.COUNT_OFFSET, 2), 3, 0, "tree marker with 2 pieces");
    }

    private static void assertRejected(Buffer message, int ranks, int rank, String reason) {
        assertThatThrownBy(() -> PackedScatter.unpack(message, ranks, rank))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageStartingWith("packed scatter message")
                .hasMessageContaining(reason);
    }

    private static Buffer with(Buffer message, int offset, int value) {
        return message.copy().setInt(offset, value);
    }

    private static Buffer withByte(Buffer message, int offset, byte value) {
        return message.copy().setByte(offset, value);
    }
}
