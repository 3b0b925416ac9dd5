package dev.canopy.collectives.data;

import io.vertx.core.buffer.Buffer;

/**
 * (value, index) pairs, the operands of minloc and maxloc, held as two parallel arrays.
 * Integral pair types ({@link ElementType#INT_INDEX}, {@link ElementType#LONG_INDEX}) keep values as
 * {@code long}; floating ones ({@link ElementType#FLOAT_INDEX}, {@link ElementType#DOUBLE_INDEX}) as
 * {@code double}; {@link #longValues()} or {@link #doubleValues()} is the one that applies.
 */
public record IndexedValues(ElementType type, long[] longValues, double[] doubleValues, int[] indices) {

    public IndexedValues {
        if (!type.hasIndex()) {
            throw new IllegalArgumentException(type + " is not a (value, index) type; use one of *_INDEX");
        }
        int count = type.kind() == ElementType.ValueKind.INTEGRAL ? longValues.length : doubleValues.length;
        if (count != indices.length) {
            throw new IllegalArgumentException(count + " values but " + indices.length + " indices");
        }
    }

    public static IndexedValues ofLongs(ElementType type, long[] values, int[] indices) {
        return new IndexedValues(type, values.clone(), new double[0], indices.clone());
    }

    public static IndexedValues ofDoubles(ElementType type, double[] values, int[] indices) {
        return new IndexedValues(type, new long[0], values.clone(), indices.clone());
    }

    public int count() {
        return indices.length;
    }

    public Buffer encode() {
        Buffer buffer = Buffer.buffer(count() * type.size());
        for (int i = 0; i < count(); i++) {
            switch (type) {
                case INT_INDEX -> buffer.appendInt(Math.toIntExact(longValues[i]));
                case LONG_INDEX -> buffer.appendLong(longValues[i]);
                case FLOAT_INDEX -> buffer.appendFloat((float) doubleValues[i]);
                case DOUBLE_INDEX -> buffer.appendDouble(doubleValues[i]);
                default -> throw new IllegalStateException("not a pair type: " + type);
            }
            buffer.appendInt(indices[i]);
        }
        return buffer;
    }

    /**
     * Reads (value, index) pairs of {@code type}; a buffer that is not a whole number of pairs is a
     * {@link MalformedMessageException}. Indices are the senders' and are not checked.
     */
    public static IndexedValues decode(ElementType type, Buffer buffer) {
        if (!type.hasIndex()) {
            throw new IllegalArgumentException(type + " is not a (value, index) type; use one of *_INDEX");
        }
        int count = type.receivedElementCount(buffer.length());
        long[] longs = new long[type.kind() == ElementType.ValueKind.INTEGRAL ? count : 0];
        double[] doubles = new double[type.kind() == ElementType.ValueKind.FLOATING ? count : 0];
        int[] indices = new int[count];
        for (int i = 0; i < count; i++) {
            int offset = i * type.size();
            switch (type) {
                case INT_INDEX -> longs[i] = buffer.getInt(offset);
                case LONG_INDEX -> longs[i] = buffer.getLong(offset);
                case FLOAT_INDEX -> doubles[i] = buffer.getFloat(offset);
                case DOUBLE_INDEX -> doubles[i] = buffer.getDouble(offset);
                default -> throw new IllegalArgumentException(type + " is not a (value, index) type");
            }
            indices[i] = buffer.getInt(offset + type.valueBytes());
        }
        return new IndexedValues(type, longs, doubles, indices);
    }
}
