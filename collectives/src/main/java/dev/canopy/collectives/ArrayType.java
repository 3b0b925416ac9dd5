package dev.canopy.collectives;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.data.ValueCodec;
import io.vertx.core.buffer.Buffer;
import java.lang.reflect.Array;
import java.util.function.Function;

/**
 * A primitive array type collectives accept: {@link #BYTES}, {@link #INTS}, {@link #LONGS},
 * {@link #FLOATS}, {@link #DOUBLES}, with its element type and wire encoding.
 *
 * @param <A> the array type, e.g. {@code int[]}
 */
public final class ArrayType<A> {

    public static final ArrayType<byte[]> BYTES = new ArrayType<>(ElementType.BYTE, ValueCodec::encode, ValueCodec::bytes);
    public static final ArrayType<int[]> INTS = new ArrayType<>(ElementType.INT, ValueCodec::encode, ValueCodec::ints);
    public static final ArrayType<long[]> LONGS = new ArrayType<>(ElementType.LONG, ValueCodec::encode, ValueCodec::longs);
    public static final ArrayType<float[]> FLOATS = new ArrayType<>(ElementType.FLOAT, ValueCodec::encode, ValueCodec::floats);
    public static final ArrayType<double[]> DOUBLES = new ArrayType<>(ElementType.DOUBLE, ValueCodec::encode, ValueCodec::doubles);

    private final ElementType elementType;
    private final Function<A, Buffer> encoder;
    private final Function<Buffer, A> decoder;

    private ArrayType(ElementType elementType, Function<A, Buffer> encoder, Function<Buffer, A> decoder) {
        this.elementType = elementType;
        this.encoder = encoder;
        this.decoder = decoder;
    }

    public ElementType elementType() {
        return elementType;
    }

    public Buffer encode(A values) {
        return encoder.apply(values);
    }

    public A decode(Buffer buffer) {
        return decoder.apply(buffer);
    }

    /** The number of elements of {@code values}. */
    public int length(A values) {
        return Array.getLength(values);
    }

    /** Bytes of {@code count} elements. */
    public int bytes(int count) {
        return Math.multiplyExact(count, elementType.size());
    }

    @Override
    public String toString() {
        return elementType.name().toLowerCase(java.util.Locale.ROOT) + "[]";
    }
}
