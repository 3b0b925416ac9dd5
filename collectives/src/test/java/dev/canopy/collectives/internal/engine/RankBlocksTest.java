package dev.canopy.collectives.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.data.MalformedMessageException;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RankBlocksTest {

    @Test
    void encodesInRankOrderWhateverTheOrderBlocksWerePut() {
        RankBlocks blocks = RankBlocks.builder().put(5, Buffer.buffer("five")).put(2, Buffer.buffer("two")).build();
        Buffer encoded = blocks.encode();
        assertThat(encoded.length()).isEqualTo(blocks.encodedLength()).isEqualTo(4 + 8 + 3 + 8 + 4);
        assertThat(encoded.getInt(0)).isEqualTo(2);
        assertThat(encoded.getInt(4)).isEqualTo(2);
        assertThat(RankBlocks.decode(encoded).ranks()).containsExactly(2, 5);
        assertThat(RankBlocks.decode(encoded).block(5)).isEqualTo(Buffer.buffer("five"));
    }

    @Test
    void aRankGivenTwiceOrABuilderUsedAfterBuildingIsABug() {
        RankBlocks.Builder builder = RankBlocks.builder().put(1, Buffer.buffer("a"));
        assertThatThrownBy(() -> builder.put(1, Buffer.buffer("b"))).hasMessageContaining("rank 1 contributed two blocks");
        builder.build();
        assertThatThrownBy(() -> builder.put(2, Buffer.buffer("c"))).hasMessageContaining("already built");
    }

    @Test
    void slicedBlocksShareTheMessagesBytesWhileDecodedBlocksAreCopies() {
        Buffer encoded = RankBlocks.ofRanks(List.of(Buffer.buffer("abc"), Buffer.buffer("xyz"))).encode();
        RankBlocks sliced = RankBlocks.sliced(encoded);
        RankBlocks decoded = RankBlocks.decode(encoded);
        int firstByteOfRank1 = 4 + 8 + 3 + 8;
        encoded.setByte(firstByteOfRank1, (byte) 'X');
        assertThat(sliced.block(1).toString()).isEqualTo("Xyz");
        assertThat(decoded.block(1).toString()).isEqualTo("xyz");
        assertThat(sliced.copied().block(1).toString()).isEqualTo("Xyz");
        encoded.setByte(firstByteOfRank1, (byte) 'Y');
        assertThat(sliced.block(1).toString()).isEqualTo("Yyz");
    }

    @Test
    void nestedEncodingIsTheOuterEncodingOfTheInnerEncodings() {
        SortedMap<Integer, RankBlocks> nested = new TreeMap<>();
        nested.put(7, RankBlocks.builder().put(0, Buffer.buffer("7->0")).put(3, Buffer.buffer("7->3")).build());
        nested.put(4, RankBlocks.empty());
        RankBlocks.Builder outer = RankBlocks.builder();
        nested.forEach((rank, inner) -> outer.put(rank, inner.encode()));
        assertThat(RankBlocks.encodeNested(nested)).isEqualTo(outer.build().encode());
        RankBlocks read = RankBlocks.sliced(RankBlocks.encodeNested(nested));
        assertThat(RankBlocks.sliced(read.block(7)).block(3).toString()).isEqualTo("7->3");
        assertThat(RankBlocks.sliced(read.block(4)).count()).isZero();
    }

    @Test
    void truncatedOrOverlongBlocksAreReportedWithTheirPlace() {
        Buffer encoded = RankBlocks.ofRanks(List.of(Buffer.buffer("abc"), Buffer.buffer("xyz"))).encode();
        assertThatThrownBy(() -> RankBlocks.sliced(encoded.getBuffer(0, encoded.length() - 1)))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("block of rank 1 claims 3 bytes");
        assertThatThrownBy(() -> RankBlocks.decode(encoded.getBuffer(0, 4 + 8 + 3 + 2)))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("claim 2 blocks in 17 bytes");
        assertThatThrownBy(() -> RankBlocks.decode(encoded.getBuffer(0, 4 + 8 + 3 + 8)))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("block of rank 1 claims 3 bytes");
        assertThatThrownBy(() -> RankBlocks.decode(Buffer.buffer()))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("lack their 4-byte count");
        assertThatThrownBy(() -> RankBlocks.decode(encoded.copy().appendByte((byte) 0)))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("1 bytes after the last of 2");
        assertThatThrownBy(() -> RankBlocks.decode(encoded.copy().setInt(4 + 8 + 3, 0)))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("rank 0 after rank 0");
        assertThatThrownBy(() -> RankBlocks.decode(encoded.copy().setInt(0, -1)))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("claim -1 blocks");
    }

    @Test
    void blocksForOtherRanksThanExpectedAreMalformed() {
        RankBlocks blocks = RankBlocks.ofRanks(List.of(Buffer.buffer("a"), Buffer.buffer("b")));
        assertThat(blocks.requireRanks(new int[] {0, 1}, "the subtree of rank 0")).isSameAs(blocks);
        assertThatThrownBy(() -> blocks.requireRanks(new int[] {0, 1, 2}, "the subtree of rank 0"))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessage("blocks for ranks [0, 1] where the subtree of rank 0 has ranks [0, 1, 2]");
    }
}
