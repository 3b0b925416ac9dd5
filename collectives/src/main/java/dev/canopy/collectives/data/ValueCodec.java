package dev.canopy.collectives.data;

import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Encodes primitive arrays as big-endian {@link Buffer}s and decodes them back: the wire form of
 * every typed collective. Bulk copies through {@link ByteBuffer} views, no per-element calls. A
 * buffer that is not a whole number of elements is a {@link MalformedMessageException} (it came
 * from a member that sent something else).
 */
public final class ValueCodec {

    private ValueCodec() {
    }

    public static Buffer encode(byte[] values) {
        return Buffer.buffer(values.clone());
    }

    public static Buffer encode(int[] values) {
        ByteBuffer bytes = allocate(values.length, Integer.BYTES);
        bytes.asIntBuffer().put(values);
        return Buffer.buffer(bytes.array());
    }

    public static Buffer encode(long[] values) {
        ByteBuffer bytes = allocate(values.length, Long.BYTES);
        bytes.asLongBuffer().put(values);
        return Buffer.buffer(bytes.array());
    }

    public static Buffer encode(float[] values) {
        ByteBuffer bytes = allocate(values.length, Float.BYTES);
        bytes.asFloatBuffer().put(values);
        return Buffer.buffer(bytes.array());
    }

    public static Buffer encode(double[] values) {
        ByteBuffer bytes = allocate(values.length, Double.BYTES);
        bytes.asDoubleBuffer().put(values);
        return Buffer.buffer(bytes.array());
    }

    public static byte[] bytes(Buffer buffer) {
        return buffer.getBytes();
    }

    public static int[] ints(Buffer buffer) {
        int[] values = new int[ElementType.INT.receivedElementCount(buffer.length())];
        view(buffer).asIntBuffer().get(values);
        return values;
    }

    public static long[] longs(Buffer buffer) {
        long[] values = new long[ElementType.LONG.receivedElementCount(buffer.length())];
        view(buffer).asLongBuffer().get(values);
        return values;
    }

    public static float[] floats(Buffer buffer) {
        float[] values = new float[ElementType.FLOAT.receivedElementCount(buffer.length())];
        view(buffer).asFloatBuffer().get(values);
        return values;
    }

    public static double[] doubles(Buffer buffer) {
        double[] values = new double[ElementType.DOUBLE.receivedElementCount(buffer.length())];
        view(buffer).asDoubleBuffer().get(values);
        return values;
    }

    private static ByteBuffer allocate(int count, int width) {
        return ByteBuffer.allocate(Math.multiplyExact(count, width)).order(ByteOrder.BIG_ENDIAN);
    }

    private static ByteBuffer view(Buffer buffer) {
        return ByteBuffer.wrap(buffer.getBytes()).order(ByteOrder.BIG_ENDIAN);
    }
}
