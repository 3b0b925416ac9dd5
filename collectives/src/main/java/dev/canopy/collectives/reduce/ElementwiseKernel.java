package dev.canopy.collectives.reduce;

import dev.canopy.collectives.data.ElementType;
import io.vertx.core.buffer.Buffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;

/**
 * The element loops behind every operator. The result starts as a copy of {@code left}; one loop
 * per element type then folds {@code right} into it in place, reading and writing big-endian values
 * straight in the buffers' arrays through {@link VarHandle} views (see {@link BufferBytes}) and
 * applying the operator through {@link Arithmetic}. Results are those of applying the operator
 * element by element, left value first, with integral values widened to {@code long} and floating
 * ones to {@code double}.
 */
final class ElementwiseKernel {

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.BIG_ENDIAN);

    private ElementwiseKernel() {
    }

    /** A built-in operator on BYTE, INT or LONG elements. */
    static Buffer integral(ElementType type, Buffer left, Buffer right, Arithmetic operator) {
        requireKind(type, ElementType.ValueKind.INTEGRAL);
        return fold(type, left, right, operator, null, null);
    }

    /** A user's function on BYTE, INT or LONG elements. */
    static Buffer integral(ElementType type, Buffer left, Buffer right, LongBinaryOperator user) {
        requireKind(type, ElementType.ValueKind.INTEGRAL);
        return fold(type, left, right, Arithmetic.USER, user, null);
    }

    /** A built-in operator on FLOAT or DOUBLE elements. */
    static Buffer floating(ElementType type, Buffer left, Buffer right, Arithmetic operator) {
        requireKind(type, ElementType.ValueKind.FLOATING);
        return fold(type, left, right, operator, null, null);
    }

    /** A user's function on FLOAT or DOUBLE elements. */
    static Buffer floating(ElementType type, Buffer left, Buffer right, DoubleBinaryOperator user) {
        requireKind(type, ElementType.ValueKind.FLOATING);
        return fold(type, left, right, Arithmetic.USER, null, user);
    }

    /**
     * Minloc ({@code operator} {@link Arithmetic#MIN}) or maxloc ({@link Arithmetic#MAX}) on
     * (value, index) pairs: per element, the pair with the lower or higher value, on equal values
     * the one with the lower index.
     */
    static Buffer pairs(ElementType type, Buffer left, Buffer right, Arithmetic operator) {
        if (!type.hasIndex()) {
            throw new IllegalArgumentException("minloc and maxloc need (value, index) elements, not " + type
                    + "; use one of INT_INDEX, LONG_INDEX, FLOAT_INDEX, DOUBLE_INDEX");
        }
        if (operator != Arithmetic.MIN && operator != Arithmetic.MAX) {
            throw new IllegalArgumentException("minloc and maxloc pick by MIN or MAX, not " + operator);
        }
        return fold(type, left, right, operator, null, null);
    }

    /**
     * Copies {@code left} and folds {@code right} into the copy with the loop for {@code type}, each
     * in a small method of its own; the user's functions are only called for {@link Arithmetic#USER}.
     * The loops look alike but each steps by its element width as a constant: with the width in a
     * variable, the JIT kept a bounds check per access and a 1 Ki INT sum took 2.6 times as long.
     */
    private static Buffer fold(ElementType type, Buffer left, Buffer right, Arithmetic operator,
            LongBinaryOperator integralUser, DoubleBinaryOperator floatingUser) {
        int count = elementCount(type, left, right);
        Buffer out = Buffer.buffer(left.length()).appendBuffer(left);
        BufferBytes result = BufferBytes.of(out);
        BufferBytes other = BufferBytes.of(right);
        switch (type) {
            case BYTE -> foldBytes(result, other, count, operator, integralUser);
            case INT -> foldInts(result, other, count, operator, integralUser);
            case LONG -> foldLongs(result, other, count, operator, integralUser);
            case FLOAT -> foldFloats(result, other, count, operator, floatingUser);
            case DOUBLE -> foldDoubles(result, other, count, operator, floatingUser);
            default -> foldPairs(type, result, other, count, operator);
        }
        result.writeBack();
        return out;
    }

    private static void foldBytes(BufferBytes result, BufferBytes other, int count, Arithmetic operator,
            LongBinaryOperator user) {
        byte[] mine = result.array();
        byte[] theirs = other.array();
        int from = result.offset();
        int otherFrom = other.offset();
        for (int i = 0; i < count; i++) {
            mine[from + i] = (byte) operator.applyToLongs(user, mine[from + i], theirs[otherFrom + i]);
        }
    }

    private static void foldInts(BufferBytes result, BufferBytes other, int count, Arithmetic operator,
            LongBinaryOperator user) {
        byte[] mine = result.array();
        byte[] theirs = other.array();
        int from = result.offset();
        int otherFrom = other.offset();
        for (int i = 0; i < count; i++) {
            int p = from + i * Integer.BYTES;
            long value = operator.applyToLongs(user, (int) INT.get(mine, p),
                    (int) INT.get(theirs, otherFrom + i * Integer.BYTES));
            INT.set(mine, p, (int) value);
        }
    }

    private static void foldLongs(BufferBytes result, BufferBytes other, int count, Arithmetic operator,
            LongBinaryOperator user) {
        byte[] mine = result.array();
        byte[] theirs = other.array();
        int from = result.offset();
        int otherFrom = other.offset();
        for (int i = 0; i < count; i++) {
            int p = from + i * Long.BYTES;
            long value = operator.applyToLongs(user, (long) LONG.get(mine, p),
                    (long) LONG.get(theirs, otherFrom + i * Long.BYTES));
            LONG.set(mine, p, value);
        }
    }

    private static void foldFloats(BufferBytes result, BufferBytes other, int count, Arithmetic operator,
            DoubleBinaryOperator user) {
        byte[] mine = result.array();
        byte[] theirs = other.array();
        int from = result.offset();
        int otherFrom = other.offset();
        for (int i = 0; i < count; i++) {
            int p = from + i * Float.BYTES;
            double value = operator.applyToDoubles(user, (float) FLOAT.get(mine, p),
                    (float) FLOAT.get(theirs, otherFrom + i * Float.BYTES));
            FLOAT.set(mine, p, (float) value);
        }
    }

    private static void foldDoubles(BufferBytes result, BufferBytes other, int count, Arithmetic operator,
            DoubleBinaryOperator user) {
        byte[] mine = result.array();
        byte[] theirs = other.array();
        int from = result.offset();
        int otherFrom = other.offset();
        for (int i = 0; i < count; i++) {
            int p = from + i * Double.BYTES;
            double value = operator.applyToDoubles(user, (double) DOUBLE.get(mine, p),
                    (double) DOUBLE.get(theirs, otherFrom + i * Double.BYTES));
            DOUBLE.set(mine, p, value);
        }
    }

    /** Keeps, per element, the pair whose value {@code operator} (MIN or MAX) picks; on ties the lower index. */
    private static void foldPairs(ElementType type, BufferBytes result, BufferBytes other, int count,
            Arithmetic operator) {
        byte[] mine = result.array();
        byte[] theirs = other.array();
        int size = type.size();
        int indexAt = type.valueBytes();
        int preferred = operator == Arithmetic.MIN ? -1 : 1;
        for (int i = 0; i < count; i++) {
            int p = result.offset() + i * size;
            int q = other.offset() + i * size;
            int comparison = preferred * compareValues(type, theirs, q, mine, p);
            boolean lowerIndex = (int) INT.get(theirs, q + indexAt) < (int) INT.get(mine, p + indexAt);
            if (comparison > 0 || comparison == 0 && lowerIndex) {
                System.arraycopy(theirs, q, mine, p, size);
            }
        }
    }

    /** How the value at {@code p} in {@code first} compares to the one at {@code q} in {@code second}. */
    private static int compareValues(ElementType type, byte[] first, int p, byte[] second, int q) {
        return switch (type) {
            case INT_INDEX -> Integer.compare((int) INT.get(first, p), (int) INT.get(second, q));
            case LONG_INDEX -> Long.compare((long) LONG.get(first, p), (long) LONG.get(second, q));
            case FLOAT_INDEX -> Float.compare((float) FLOAT.get(first, p), (float) FLOAT.get(second, q));
            default -> Double.compare((double) DOUBLE.get(first, p), (double) DOUBLE.get(second, q));
        };
    }

    private static void requireKind(ElementType type, ElementType.ValueKind kind) {
        if (type.hasIndex() || type.kind() != kind) {
            throw new IllegalArgumentException("operator applies to " + kind.name().toLowerCase(Locale.ROOT)
                    + " values, not " + type);
        }
    }

    private static int elementCount(ElementType type, Buffer left, Buffer right) {
        if (left.length() != right.length()) {
            throw new IllegalArgumentException("cannot combine vectors of " + left.length() + " and "
                    + right.length() + " bytes: every rank must contribute the same count");
        }
        return type.elementCount(left.length());
    }
}
