package dev.canopy.collectives.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.data.ElementType;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The kernel against a reference that applies each operator element by element through the
 * {@link Buffer} API, the way the kernel did before it read arrays: results must be the same bytes
 * (NaN payloads, signed zeros and rounding included), on heap, sliced and direct buffers alike, and
 * the operands must come out untouched.
 */
class ElementwiseKernelTest {

    /** How an operand is held: its own heap buffer, a slice in the middle of a larger one, direct memory. */
    enum Shape { HEAP, SLICE, DIRECT }

    @Property
    void builtInOperatorsGiveTheReferenceBytes(@ForAll BuiltInOp op, @ForAll ElementType type,
            @ForAll @IntRange(max = 40) int count, @ForAll long seed, @ForAll Shape leftShape,
            @ForAll Shape rightShape) {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] left = randomElements(random, type, count, null);
        byte[] right = randomElements(random, type, count, left);
        Buffer leftBuffer = shaped(leftShape, left);
        Buffer rightBuffer = shaped(rightShape, right);

        if (!appliesTo(op, type)) {
            assertThatThrownBy(() -> op.combine(type, leftBuffer, rightBuffer))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(type.name());
            return;
        }
        Buffer result = op.combine(type, leftBuffer, rightBuffer);

        assertThat(comparable(type, result)).isEqualTo(comparable(type, reference(op, type, Buffer.buffer(left),
                Buffer.buffer(right))));
        assertThat(leftBuffer.getBytes()).isEqualTo(left);
        assertThat(rightBuffer.getBytes()).isEqualTo(right);
    }

    @Property
    void userOperatorsSeeEveryPairInOrder(@ForAll @IntRange(max = 40) int count, @ForAll long seed,
            @ForAll Shape leftShape, @ForAll Shape rightShape) {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] ints = randomElements(random, ElementType.INT, 2 * count, null);
        byte[] longs = randomElements(random, ElementType.LONG, 2 * count, null);
        byte[] doubles = randomElements(random, ElementType.DOUBLE, 2 * count, null);
        ReduceOp intOp = ReduceOp.ofInts("a*31+b", (a, b) -> a * 31 + b);
        ReduceOp longOp = ReduceOp.ofLongs("a-2b", (a, b) -> a - 2 * b);
        ReduceOp doubleOp = ReduceOp.ofDoubles("a/b", (a, b) -> a / b);

        Buffer intResult = intOp.combine(ElementType.INT, shaped(leftShape, firstHalf(ints)),
                shaped(rightShape, secondHalf(ints)));
        Buffer longResult = longOp.combine(ElementType.LONG, shaped(leftShape, firstHalf(longs)),
                shaped(rightShape, secondHalf(longs)));
        Buffer doubleResult = doubleOp.combine(ElementType.DOUBLE, shaped(leftShape, firstHalf(doubles)),
                shaped(rightShape, secondHalf(doubles)));

        Buffer intLeft = Buffer.buffer(firstHalf(ints));
        Buffer intRight = Buffer.buffer(secondHalf(ints));
        Buffer longLeft = Buffer.buffer(firstHalf(longs));
        Buffer longRight = Buffer.buffer(secondHalf(longs));
        Buffer doubleLeft = Buffer.buffer(firstHalf(doubles));
        Buffer doubleRight = Buffer.buffer(secondHalf(doubles));
        for (int i = 0; i < count; i++) {
            assertThat(intResult.getInt(4 * i)).isEqualTo(intLeft.getInt(4 * i) * 31 + intRight.getInt(4 * i));
            assertThat(longResult.getLong(8 * i)).isEqualTo(longLeft.getLong(8 * i) - 2 * longRight.getLong(8 * i));
            assertThat(Double.doubleToLongBits(doubleResult.getDouble(8 * i)))
                    .isEqualTo(Double.doubleToLongBits(doubleLeft.getDouble(8 * i) / doubleRight.getDouble(8 * i)));
        }
    }

    @Test
    void aResultGrowsLikeAnyBuffer() {
        Buffer sum = BuiltInOp.SUM.combine(ElementType.INT, Buffer.buffer().appendInt(1), Buffer.buffer().appendInt(2));

        sum.appendBuffer(Buffer.buffer().appendInt(4));

        assertThat(sum.getInt(0)).isEqualTo(3);
        assertThat(sum.getInt(4)).isEqualTo(4);
    }

    @Test
    void operatorsRefuseValuesTheyDoNotApplyTo() {
        assertThat(Arithmetic.BXOR.applyToLongs(null, 6, 3)).isEqualTo(5);
        assertThatThrownBy(() -> Arithmetic.BXOR.applyToDoubles(null, 6, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("BXOR");
        assertThatThrownBy(() -> ElementwiseKernel.pairs(ElementType.INT_INDEX, Buffer.buffer(), Buffer.buffer(),
                Arithmetic.SUM)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MIN or MAX");
    }

    /**
     * The bytes of a result, except that every NaN computed by floating-point arithmetic reads as the
     * canonical NaN: Java leaves the payload of such a NaN to the hardware and the JIT (which may
     * swap the operands of a sum), so no kernel can promise it. Pairs are copied, never computed.
     */
    private static long[] comparable(ElementType type, Buffer result) {
        long[] values = new long[result.length()];
        for (int i = 0; i < values.length; i++) {
            values[i] = switch (type) {
                case FLOAT -> i % Float.BYTES == 0 ? Float.floatToIntBits(result.getFloat(i)) : 0;
                case DOUBLE -> i % Double.BYTES == 0 ? Double.doubleToLongBits(result.getDouble(i)) : 0;
                default -> result.getByte(i);
            };
        }
        return values;
    }

    private static boolean appliesTo(BuiltInOp op, ElementType type) {
        return switch (op) {
            case MINLOC, MAXLOC -> type.hasIndex();
            case SUM, PROD, MIN, MAX -> !type.hasIndex();
            default -> !type.hasIndex() && type.kind() == ElementType.ValueKind.INTEGRAL;
        };
    }

    /**
     * Random elements; when {@code tiesWith} is given, about a third of the values copy its value
     * (not its index), so minloc and maxloc meet equal values.
     */
    private static byte[] randomElements(SplittableRandom random, ElementType type, int count, byte[] tiesWith) {
        byte[] bytes = new byte[count * type.size()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) random.nextInt();
        }
        if (tiesWith != null) {
            for (int element = 0; element < count; element++) {
                if (random.nextInt(3) == 0) {
                    System.arraycopy(tiesWith, element * type.size(), bytes, element * type.size(), type.valueBytes());
                }
            }
        }
        return bytes;
    }

    private static Buffer shaped(Shape shape, byte[] bytes) {
        return switch (shape) {
            case HEAP -> Buffer.buffer(bytes);
            case SLICE -> Buffer.buffer().appendString("before").appendBytes(bytes).appendString("after")
                    .slice("before".length(), "before".length() + bytes.length);
            case DIRECT -> direct(bytes);
        };
    }

    /** A buffer over JDK direct memory (not Netty's, which leak detection would want released). */
    static Buffer direct(byte[] bytes) {
        return BufferInternal.buffer(Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(bytes.length).put(bytes).flip()));
    }

    private static byte[] firstHalf(byte[] bytes) {
        return Arrays.copyOfRange(bytes, 0, bytes.length / 2);
    }

    private static byte[] secondHalf(byte[] bytes) {
        return Arrays.copyOfRange(bytes, bytes.length / 2, bytes.length);
    }

    /** Element by element through bounds-checked Buffer calls: integral values as long, floating as double. */
    private static Buffer reference(BuiltInOp op, ElementType type, Buffer left, Buffer right) {
        Buffer out = Buffer.buffer();
        for (int offset = 0; offset < left.length(); offset += type.size()) {
            if (type.hasIndex()) {
                int comparison = compareValues(type, right, left, offset);
                boolean lowerIndex = right.getInt(offset + type.valueBytes()) < left.getInt(offset + type.valueBytes());
                boolean takeRight = op == BuiltInOp.MINLOC
                        ? comparison < 0 || comparison == 0 && lowerIndex
                        : comparison > 0 || comparison == 0 && lowerIndex;
                out.appendBuffer(takeRight ? right : left, offset, type.size());
            } else if (type.kind() == ElementType.ValueKind.INTEGRAL) {
                long value = integral(op, readLong(type, left, offset), readLong(type, right, offset));
                switch (type) {
                    case BYTE -> out.appendByte((byte) value);
                    case INT -> out.appendInt((int) value);
                    default -> out.appendLong(value);
                }
            } else if (type == ElementType.FLOAT) {
                out.appendFloat((float) floating(op, left.getFloat(offset), right.getFloat(offset)));
            } else {
                out.appendDouble(floating(op, left.getDouble(offset), right.getDouble(offset)));
            }
        }
        return out;
    }

    private static long integral(BuiltInOp op, long a, long b) {
        return switch (op) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
            case LAND -> a != 0 && b != 0 ? 1 : 0;
            case LOR -> a != 0 || b != 0 ? 1 : 0;
            case BAND -> a & b;
            case BOR -> a | b;
            case BXOR -> a ^ b;
            default -> throw new AssertionError(op);
        };
    }

    private static double floating(BuiltInOp op, double a, double b) {
        return switch (op) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
            default -> throw new AssertionError(op);
        };
    }

    private static long readLong(ElementType type, Buffer buffer, int offset) {
        return switch (type) {
            case BYTE -> buffer.getByte(offset);
            case INT -> buffer.getInt(offset);
            default -> buffer.getLong(offset);
        };
    }

    private static int compareValues(ElementType type, Buffer first, Buffer second, int offset) {
        return switch (type) {
            case INT_INDEX -> Integer.compare(first.getInt(offset), second.getInt(offset));
            case LONG_INDEX -> Long.compare(first.getLong(offset), second.getLong(offset));
            case FLOAT_INDEX -> Float.compare(first.getFloat(offset), second.getFloat(offset));
            default -> Double.compare(first.getDouble(offset), second.getDouble(offset));
        };
    }
}
