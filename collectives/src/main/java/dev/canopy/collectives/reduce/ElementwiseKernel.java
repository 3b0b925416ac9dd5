package dev.canopy.collectives.reduce;

import dev.canopy.collectives.data.ElementType;
import io.vertx.core.buffer.Buffer;
import java.util.Locale;
import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;

/**
 * The element loops behind every operator: integral values go through {@code long}, floating ones
 * through {@code double} (exact for float: a double holds every float sum and product correctly
 * rounded), (value, index) pairs through a chooser.
 */
final class ElementwiseKernel {

    /** Picks the left or right (value, index) pair given the comparison of right's value to left's. */
    interface PairChooser {
        boolean takeRight(int rightComparedToLeft, int leftIndex, int rightIndex);
    }

    private ElementwiseKernel() {
    }

    static Buffer integral(ElementType type, Buffer left, Buffer right, LongBinaryOperator op) {
        requireKind(type, ElementType.ValueKind.INTEGRAL, left, right);
        int count = type.elementCount(left.length());
        Buffer out = Buffer.buffer(left.length());
        for (int i = 0; i < count; i++) {
            int offset = i * type.size();
            long value = op.applyAsLong(readLong(type, left, offset), readLong(type, right, offset));
            switch (type) {
                case BYTE -> out.appendByte((byte) value);
                case INT -> out.appendInt((int) value);
                default -> out.appendLong(value);
            }
        }
        return out;
    }

    static Buffer floating(ElementType type, Buffer left, Buffer right, DoubleBinaryOperator op) {
        requireKind(type, ElementType.ValueKind.FLOATING, left, right);
        int count = type.elementCount(left.length());
        Buffer out = Buffer.buffer(left.length());
        for (int i = 0; i < count; i++) {
            int offset = i * type.size();
            double value = op.applyAsDouble(readDouble(type, left, offset), readDouble(type, right, offset));
            if (type == ElementType.FLOAT) {
                out.appendFloat((float) value);
            } else {
                out.appendDouble(value);
            }
        }
        return out;
    }

    static Buffer pairs(ElementType type, Buffer left, Buffer right, PairChooser chooser) {
        if (!type.hasIndex()) {
            throw new IllegalArgumentException("minloc and maxloc need (value, index) elements, not " + type
                    + "; use one of INT_INDEX, LONG_INDEX, FLOAT_INDEX, DOUBLE_INDEX");
        }
        requireSameLength(left, right);
        int count = type.elementCount(left.length());
        Buffer out = Buffer.buffer(left.length());
        for (int i = 0; i < count; i++) {
            int offset = i * type.size();
            int indexOffset = offset + type.valueBytes();
            boolean takeRight = chooser.takeRight(compareValues(type, right, left, offset),
                    left.getInt(indexOffset), right.getInt(indexOffset));
            Buffer source = takeRight ? right : left;
            out.appendBuffer(source, offset, type.size());
        }
        return out;
    }

    private static int compareValues(ElementType type, Buffer first, Buffer second, int offset) {
        return switch (type) {
            case INT_INDEX -> Integer.compare(first.getInt(offset), second.getInt(offset));
            case LONG_INDEX -> Long.compare(first.getLong(offset), second.getLong(offset));
            case FLOAT_INDEX -> Float.compare(first.getFloat(offset), second.getFloat(offset));
            default -> Double.compare(first.getDouble(offset), second.getDouble(offset));
        };
    }

    private static long readLong(ElementType type, Buffer buffer, int offset) {
        return switch (type) {
            case BYTE -> buffer.getByte(offset);
            case INT -> buffer.getInt(offset);
            default -> buffer.getLong(offset);
        };
    }

    private static double readDouble(ElementType type, Buffer buffer, int offset) {
        return type == ElementType.FLOAT ? buffer.getFloat(offset) : buffer.getDouble(offset);
    }

    private static void requireKind(ElementType type, ElementType.ValueKind kind, Buffer left, Buffer right) {
        if (type.hasIndex() || type.kind() != kind) {
            throw new IllegalArgumentException("operator applies to " + kind.name().toLowerCase(Locale.ROOT)
                    + " values, not " + type);
        }
        requireSameLength(left, right);
    }

    private static void requireSameLength(Buffer left, Buffer right) {
        if (left.length() != right.length()) {
            throw new IllegalArgumentException("cannot combine vectors of " + left.length() + " and "
                    + right.length() + " bytes: every rank must contribute the same count");
        }
    }
}
