package dev.canopy.bench;

import dev.canopy.collectives.data.ElementType;
import io.vertx.core.buffer.Buffer;
import java.util.SplittableRandom;

/** Benchmark inputs drawn from a seeded generator, so every run and every fork sees the same bytes. */
final class SeededBuffers {

    private SeededBuffers() {
    }

    /** {@code length} random bytes. */
    static Buffer bytes(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return Buffer.buffer(bytes);
    }

    /**
     * A big-endian vector of {@code elements} values of {@code type} (INT or DOUBLE), small enough
     * that sums of a few vectors never overflow.
     */
    static Buffer vector(SplittableRandom random, ElementType type, int elements) {
        Buffer out = Buffer.buffer(elements * type.size());
        for (int i = 0; i < elements; i++) {
            switch (type) {
                case INT -> out.appendInt(random.nextInt(-1_000_000, 1_000_000));
                case DOUBLE -> out.appendDouble(random.nextDouble(-1e6, 1e6));
                default -> throw new IllegalArgumentException("benchmark vectors are INT or DOUBLE, not " + type);
            }
        }
        return out;
    }
}
