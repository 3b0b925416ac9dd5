package dev.canopy.collectives.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ValueCodecTest {

    @Property
    void intsRoundTrip(@ForAll int[] values) {
        assertThat(ValueCodec.ints(ValueCodec.encode(values))).containsExactly(values);
    }

    @Property
    void longsRoundTrip(@ForAll long[] values) {
        assertThat(ValueCodec.longs(ValueCodec.encode(values))).containsExactly(values);
    }

    @Property
    void doublesRoundTrip(@ForAll double[] values) {
        assertThat(ValueCodec.doubles(ValueCodec.encode(values))).containsExactly(values);
    }

    @Property
    void floatsRoundTrip(@ForAll float[] values) {
        assertThat(ValueCodec.floats(ValueCodec.encode(values))).containsExactly(values);
    }

    @Property
    void bytesRoundTrip(@ForAll byte[] values) {
        assertThat(ValueCodec.bytes(ValueCodec.encode(values))).containsExactly(values);
    }

    @Test
    void encodingIsBigEndian() {
        assertThat(ValueCodec.encode(new int[] {1}).getBytes()).containsExactly(0, 0, 0, 1);
    }

    @Test
    void partialElementIsRejectedWithTheSizes() {
        assertThatThrownBy(() -> ValueCodec.longs(Buffer.buffer(new byte[12])))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("12 bytes").hasMessageContaining("LONG");
    }

    @Test
    void indexedValuesRoundTrip() {
        IndexedValues doubles = IndexedValues.ofDoubles(ElementType.DOUBLE_INDEX, new double[] {1.5, -2}, new int[] {7, 3});
        IndexedValues decoded = IndexedValues.decode(ElementType.DOUBLE_INDEX, doubles.encode());
        assertThat(decoded.doubleValues()).containsExactly(1.5, -2);
        assertThat(decoded.indices()).containsExactly(7, 3);

        IndexedValues ints = IndexedValues.ofLongs(ElementType.INT_INDEX, new long[] {-4}, new int[] {9});
        assertThat(ints.encode().length()).isEqualTo(8);
        assertThat(IndexedValues.decode(ElementType.INT_INDEX, ints.encode()).longValues()).containsExactly(-4);
    }
}
