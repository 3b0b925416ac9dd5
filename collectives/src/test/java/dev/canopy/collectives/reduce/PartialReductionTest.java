package dev.canopy.collectives.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.data.ElementType;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class PartialReductionTest {

    /** Concatenation: associative, not commutative; the result shows the order of application. */
    private static final ReduceOp CONCAT = ReduceOp.ofBuffers("concat", (a, b) -> a.copy().appendBuffer(b));

    @Property
    void anyMergeOrderGivesTheRankOrderedResult(@ForAll @IntRange(min = 1, max = 33) int size, @ForAll long seed) {
        Random random = new Random(seed);
        List<PartialReduction> pending = new ArrayList<>();
        for (int rank = 0; rank < size; rank++) {
            pending.add(PartialReduction.of(rank, Buffer.buffer(Character.toString('A' + rank))));
        }
        while (pending.size() > 1) {
            PartialReduction a = pending.remove(random.nextInt(pending.size()));
            PartialReduction b = pending.remove(random.nextInt(pending.size()));
            pending.add(PartialReduction.decode(a.merge(b, CONCAT, ElementType.BYTE).encode()));
        }
        StringBuilder expected = new StringBuilder();
        for (int rank = 0; rank < size; rank++) {
            expected.append((char) ('A' + rank));
        }
        assertThat(pending.get(0).result().toString(StandardCharsets.US_ASCII)).isEqualTo(expected.toString());
    }

    @Test
    void theWireFormHasTheAnnouncedLengthAndFollowsAPrefix() {
        PartialReduction partial = PartialReduction.of(0, Buffer.buffer("ab"))
                .merge(PartialReduction.of(2, Buffer.buffer("cde")), CONCAT, ElementType.BYTE);
        int length = Integer.BYTES + 2 * 3 * Integer.BYTES + 5;

        assertThat(partial.encodedLength()).isEqualTo(length);
        assertThat(partial.encode().length()).isEqualTo(length);
        Buffer prefixed = partial.encodeTo(Buffer.buffer().appendInt(42));
        assertThat(prefixed.getInt(0)).isEqualTo(42);
        PartialReduction decoded = PartialReduction.decode(prefixed.slice(Integer.BYTES, prefixed.length()));
        assertThat(decoded.runs()).extracting(PartialReduction.Run::firstRank).containsExactly(0, 2);
        assertThat(decoded.runs()).extracting(run -> run.value().toString()).containsExactly("ab", "cde");
    }

    @Test
    void separateRunsAreABugNamingTheRuns() {
        PartialReduction gap = PartialReduction.of(0, Buffer.buffer("a"))
                .merge(PartialReduction.of(2, Buffer.buffer("c")), CONCAT, ElementType.BYTE);
        assertThat(gap.runs()).hasSize(2);
        assertThatThrownBy(gap::result).isInstanceOf(IllegalStateException.class).hasMessageContaining("[0..0][2..2]");
    }

    @Test
    void malformedWireFormsAreRejectedBeforeAnyValueIsRead() {
        Buffer valid = twoRuns().encode();
        assertMalformed(Buffer.buffer(), "lacks its run count");
        assertMalformed(valid.copy().setInt(0, 0), "claims 0 runs");
        assertMalformed(valid.copy().setInt(0, Integer.MAX_VALUE), "claims 2147483647 runs");
        assertMalformed(valid.copy().setInt(4 + 8, -1), "claims -1 bytes");
        assertMalformed(valid.copy().setInt(4 + 4, -5), "covers ranks 0..-5");
        assertMalformed(valid.copy().setInt(4 + 12 + 3, 0), "covers ranks 0..2 after rank 0");
        assertMalformed(valid.copy().appendByte((byte) 1), "1 bytes after the last of 2 runs");
        assertMalformed(valid.getBuffer(0, valid.length() - 1), "claims 3 bytes");
    }

    @Test
    void aPartialResultMustBeWhatTheSubtreeSends() {
        PartialReduction runs = twoRuns();
        assertThat(runs.requireSubtree(new int[] {0, 2}, ReduceOp.Commutativity.RANK_ORDERED, -1)).isSameAs(runs);
        assertThatThrownBy(() -> runs.requireSubtree(new int[] {0, 1, 2}, ReduceOp.Commutativity.RANK_ORDERED, -1))
                .isInstanceOf(dev.canopy.collectives.data.MalformedMessageException.class)
                .hasMessageContaining("runs [0..0][2..2] are not what a subtree of 3 ranks from 0 to 2 sends");
        assertThatThrownBy(() -> runs.requireSubtree(new int[] {0, 2}, ReduceOp.Commutativity.RANK_ORDERED, 2))
                .isInstanceOf(dev.canopy.collectives.data.MalformedMessageException.class)
                .hasMessageContaining("has 3 bytes where this segment has 2");
        PartialReduction folded = PartialReduction.of(1, Buffer.buffer("b"))
                .merge(PartialReduction.of(0, Buffer.buffer("a")), BuiltInOp.BOR, ElementType.BYTE)
                .merge(PartialReduction.of(9, Buffer.buffer("c")), BuiltInOp.BOR, ElementType.BYTE);
        assertThat(folded.runs()).extracting(PartialReduction.Run::lastRank).containsExactly(9);
        assertThat(folded.requireSubtree(new int[] {0, 1, 9}, ReduceOp.Commutativity.COMMUTATIVE, 1)).isSameAs(folded);
        assertThatThrownBy(() -> folded.requireSubtree(new int[] {0, 1, 8}, ReduceOp.Commutativity.COMMUTATIVE, 1))
                .isInstanceOf(dev.canopy.collectives.data.MalformedMessageException.class);
    }

    private static PartialReduction twoRuns() {
        return PartialReduction.of(0, Buffer.buffer("abc"))
                .merge(PartialReduction.of(2, Buffer.buffer("cde")), CONCAT, ElementType.BYTE);
    }

    private static void assertMalformed(Buffer wire, String problem) {
        assertThatThrownBy(() -> PartialReduction.decode(wire))
                .isInstanceOf(dev.canopy.collectives.data.MalformedMessageException.class).hasMessageContaining(problem);
    }
}
