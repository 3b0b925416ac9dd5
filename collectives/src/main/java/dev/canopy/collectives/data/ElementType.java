package dev.canopy.collectives.data;

/**
 * The element types collectives carry and reduce, with their big-endian wire width.
 *
 * <p>The {@code *_INDEX} types are (value, int index) pairs, like MPI's {@code MPI_DOUBLE_INT}:
 * the operands of {@code minloc} and {@code maxloc}. Their wire form is the value followed by a
 * 4-byte index, per element.
 */
public enum ElementType {
    BYTE(1, ValueKind.INTEGRAL, 0),
    INT(4, ValueKind.INTEGRAL, 0),
    LONG(8, ValueKind.INTEGRAL, 0),
    FLOAT(4, ValueKind.FLOATING, 0),
    DOUBLE(8, ValueKind.FLOATING, 0),
    INT_INDEX(4, ValueKind.INTEGRAL, Integer.BYTES),
    LONG_INDEX(8, ValueKind.INTEGRAL, Integer.BYTES),
    FLOAT_INDEX(4, ValueKind.FLOATING, Integer.BYTES),
    DOUBLE_INDEX(8, ValueKind.FLOATING, Integer.BYTES);

    /** Whether values are integers (reduced through {@code long}) or floating point (through {@code double}). */
    public enum ValueKind { INTEGRAL, FLOATING }

    private final int valueBytes;
    private final ValueKind kind;
    private final int indexBytes;

    ElementType(int valueBytes, ValueKind kind, int indexBytes) {
        this.valueBytes = valueBytes;
        this.kind = kind;
        this.indexBytes = indexBytes;
    }

    /** Bytes of one element on the wire, index included. */
    public int size() {
        return valueBytes + indexBytes;
    }

    public int valueBytes() {
        return valueBytes;
    }

    public ValueKind kind() {
        return kind;
    }

    /** True for the (value, index) pair types that minloc and maxloc reduce. */
    public boolean hasIndex() {
        return indexBytes > 0;
    }

    /**
     * The number of elements in {@code bytes} bytes that came from another member (a collective's
     * result); a partial element is a {@link MalformedMessageException}.
     */
    public int receivedElementCount(int bytes) {
        if (bytes % size() != 0) {
            throw new MalformedMessageException("a message of " + bytes + " bytes is not a whole number of " + this
                    + " elements (" + size() + " bytes each)");
        }
        return bytes / size();
    }

    /** The number of elements in {@code bytes} bytes; a partial element is a caller's bug. */
    public int elementCount(int bytes) {
        if (bytes % size() != 0) {
            throw new IllegalArgumentException(bytes + " bytes is not a whole number of " + this
                    + " elements (" + size() + " bytes each)");
        }
        return bytes / size();
    }
}
