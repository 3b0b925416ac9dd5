package dev.canopy.collectives.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.data.IndexedValues;
import dev.canopy.collectives.data.ValueCodec;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class BuiltInOpTest {

    @Property
    void integerOperatorsMatchJavaArithmetic(@ForAll @Size(3) int[] a, @ForAll @Size(3) int[] b) {
        int[] sum = ints(BuiltInOp.SUM, a, b);
        int[] prod = ints(BuiltInOp.PROD, a, b);
        int[] min = ints(BuiltInOp.MIN, a, b);
        int[] max = ints(BuiltInOp.MAX, a, b);
        int[] band = ints(BuiltInOp.BAND, a, b);
        int[] bor = ints(BuiltInOp.BOR, a, b);
        int[] bxor = ints(BuiltInOp.BXOR, a, b);
        int[] land = ints(BuiltInOp.LAND, a, b);
        int[] lor = ints(BuiltInOp.LOR, a, b);
        for (int i = 0; i < 3; i++) {
            assertThat(sum[i]).isEqualTo(a[i] + b[i]);
            assertThat(prod[i]).isEqualTo(a[i] * b[i]);
            assertThat(min[i]).isEqualTo(Math.min(a[i], b[i]));
            assertThat(max[i]).isEqualTo(Math.max(a[i], b[i]));
            assertThat(band[i]).isEqualTo(a[i] & b[i]);
            assertThat(bor[i]).isEqualTo(a[i] | b[i]);
            assertThat(bxor[i]).isEqualTo(a[i] ^ b[i]);
            assertThat(land[i]).isEqualTo(a[i] != 0 && b[i] != 0 ? 1 : 0);
            assertThat(lor[i]).isEqualTo(a[i] != 0 || b[i] != 0 ? 1 : 0);
        }
    }

    @Property
    void byteAndLongArithmeticWrapLikeJava(@ForAll byte a, @ForAll byte b, @ForAll long c, @ForAll long d) {
        byte[] bytes = ValueCodec.bytes(BuiltInOp.SUM.combine(ElementType.BYTE,
                ValueCodec.encode(new byte[] {a}), ValueCodec.encode(new byte[] {b})));
        assertThat(bytes[0]).isEqualTo((byte) (a + b));
        long[] longs = ValueCodec.longs(BuiltInOp.PROD.combine(ElementType.LONG,
                ValueCodec.encode(new long[] {c}), ValueCodec.encode(new long[] {d})));
        assertThat(longs[0]).isEqualTo(c * d);
    }

    @Property
    void floatingOperatorsMatchJavaArithmetic(@ForAll float a, @ForAll float b, @ForAll double c, @ForAll double d) {
        float[] floats = ValueCodec.floats(BuiltInOp.SUM.combine(ElementType.FLOAT,
                ValueCodec.encode(new float[] {a}), ValueCodec.encode(new float[] {b})));
        assertThat(floats[0]).isEqualTo(a + b);
        double[] doubles = ValueCodec.doubles(BuiltInOp.MAX.combine(ElementType.DOUBLE,
                ValueCodec.encode(new double[] {c}), ValueCodec.encode(new double[] {d})));
        assertThat(doubles[0]).isEqualTo(Math.max(c, d));
    }

    @Test
    void minlocAndMaxlocKeepTheLowestIndexOnTies() {
        IndexedValues left = IndexedValues.ofDoubles(ElementType.DOUBLE_INDEX, new double[] {1, 5, 3}, new int[] {4, 4, 4});
        IndexedValues right = IndexedValues.ofDoubles(ElementType.DOUBLE_INDEX, new double[] {2, 5, 0}, new int[] {2, 2, 2});
        IndexedValues min = IndexedValues.decode(ElementType.DOUBLE_INDEX,
                BuiltInOp.MINLOC.combine(ElementType.DOUBLE_INDEX, left.encode(), right.encode()));
        assertThat(min.doubleValues()).containsExactly(1, 5, 0);
        assertThat(min.indices()).containsExactly(4, 2, 2);
        IndexedValues max = IndexedValues.decode(ElementType.DOUBLE_INDEX,
                BuiltInOp.MAXLOC.combine(ElementType.DOUBLE_INDEX, left.encode(), right.encode()));
        assertThat(max.doubleValues()).containsExactly(2, 5, 3);
        assertThat(max.indices()).containsExactly(2, 2, 4);
    }

    @Test
    void minlocComparesLongValuesExactly() {
        long big = (1L << 60) + 1;
        IndexedValues left = IndexedValues.ofLongs(ElementType.LONG_INDEX, new long[] {big}, new int[] {0});
        IndexedValues right = IndexedValues.ofLongs(ElementType.LONG_INDEX, new long[] {big - 1}, new int[] {1});
        IndexedValues min = IndexedValues.decode(ElementType.LONG_INDEX,
                BuiltInOp.MINLOC.combine(ElementType.LONG_INDEX, left.encode(), right.encode()));
        assertThat(min.indices()).containsExactly(1);
    }

    @Test
    void operatorsRefuseTypesTheyDoNotApplyTo() {
        assertThatThrownBy(() -> BuiltInOp.BXOR.combine(ElementType.DOUBLE, ValueCodec.encode(new double[] {1}),
                ValueCodec.encode(new double[] {2})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("DOUBLE");
        assertThatThrownBy(() -> BuiltInOp.MINLOC.combine(ElementType.INT, ValueCodec.encode(new int[] {1}),
                ValueCodec.encode(new int[] {2})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("INT_INDEX");
        assertThatThrownBy(() -> BuiltInOp.SUM.combine(ElementType.INT, ValueCodec.encode(new int[] {1}),
                ValueCodec.encode(new int[] {2, 3})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4 and 8 bytes");
    }

    @Test
    void userDefinedOperatorsKeepTheirType() {
        ReduceOp gcd = ReduceOp.ofLongs("gcd", BuiltInOpTest::gcd);
        assertThat(ValueCodec.longs(gcd.combine(ElementType.LONG, ValueCodec.encode(new long[] {12, 7}),
                ValueCodec.encode(new long[] {18, 21})))).containsExactly(6, 7);
        assertThat(gcd.commutativity()).isEqualTo(ReduceOp.Commutativity.RANK_ORDERED);
        assertThatThrownBy(() -> gcd.combine(ElementType.INT, ValueCodec.encode(new int[] {1}), ValueCodec.encode(new int[] {1})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gcd").hasMessageContaining("LONG");
    }

    private static long gcd(long a, long b) {
        return b == 0 ? Math.abs(a) : gcd(b, a % b);
    }

    private static int[] ints(ReduceOp op, int[] a, int[] b) {
        return ValueCodec.ints(op.combine(ElementType.INT, ValueCodec.encode(a), ValueCodec.encode(b)));
    }
}
