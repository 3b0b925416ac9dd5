package dev.canopy.core.testing.fuzz;

import io.vertx.core.buffer.Buffer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * A seeded mutation fuzz campaign against one decoder: valid encodings of random values, most of
 * them damaged by a {@link Mutator}, fed to the decoder one by one. It fails when
 * <ul>
 *   <li>the decoder throws anything but its documented error (a mutated input may be rejected, or
 *       decode to something else: both are fine);</li>
 *   <li>an undamaged encoding does not decode to the value it encodes, or is rejected.</li>
 * </ul>
 * Hangs are caught by the calling test's timeout. The seed is printed before the first input and
 * named in every failure; {@code -Dcanopy.fuzz.seed=N} replays a campaign. {@link #DEFAULT_INPUTS}
 * per decoder in the default build, {@link #EXHAUSTIVE_INPUTS} in tests tagged {@code exhaustive}.
 *
 * @param <T> what the decoder decodes
 */
public final class FuzzCampaign<T> {

    public static final int DEFAULT_INPUTS = 100_000;
    public static final int EXHAUSTIVE_INPUTS = 1_000_000;
    public static final String SEED_PROPERTY = "canopy.fuzz.seed";

    /** Valid encodings kept to mutate and splice; one is replaced every {@value #REFRESH_EVERY} inputs. */
    private static final int POOL = 64;
    private static final int REFRESH_EVERY = 8;
    /** One input in this many is fed undamaged, to check the round trip. */
    private static final int UNDAMAGED_ONE_IN = 8;
    private static final int HEX_SHOWN = 256;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    /** Decodes bytes; may throw the campaign's documented error. */
    @FunctionalInterface
    public interface Decoder<T> {
        T decode(Buffer bytes) throws Exception;
    }

    /** What a campaign counted. */
    public record Outcome(long seed, int inputs, int roundTrips, int rejected, int acceptedDamaged) {
    }

    private final String name;
    private final Function<SplittableRandom, T> values;
    private final Function<T, Buffer> encoder;
    private final Decoder<T> decoder;
    private Class<? extends Throwable> documentedError;
    private Function<T, Object> view = value -> value;
    private boolean json;

    private FuzzCampaign(String name, Function<SplittableRandom, T> values, Function<T, Buffer> encoder,
            Decoder<T> decoder) {
        this.name = name;
        this.values = values;
        this.encoder = encoder;
        this.decoder = decoder;
    }

    /**
     * @param name    names the decoder in the output
     * @param values  random valid values (small ones: decoders do not care for size, and speed matters)
     * @param encoder the value's wire form
     * @param decoder the decoder under test
     */
    public static <T> FuzzCampaign<T> of(String name, Function<SplittableRandom, T> values, Function<T, Buffer> encoder,
            Decoder<T> decoder) {
        return new FuzzCampaign<>(name, values, encoder, decoder);
    }

    /** The one exception type the decoder documents for bytes it rejects (none: it may throw nothing). */
    public FuzzCampaign<T> rejectingWith(Class<? extends Throwable> error) {
        this.documentedError = Objects.requireNonNull(error);
        return this;
    }

    /** Compares round trips through {@code comparable} (for types without a content {@code equals}). */
    public FuzzCampaign<T> comparedAs(Function<T, Object> comparable) {
        this.view = comparable;
        return this;
    }

    /** Adds JSON-aware mutations (values swapped for other types and extremes). */
    public FuzzCampaign<T> json() {
        this.json = true;
        return this;
    }

    /** Runs {@code inputs} inputs with the seed of {@code -Dcanopy.fuzz.seed}, or a fresh one; prints it. */
    public Outcome run(int inputs) {
        Long fixed = Long.getLong(SEED_PROPERTY);
        return run(inputs, fixed != null ? fixed : System.nanoTime() ^ name.hashCode());
    }

    public Outcome run(int inputs, long seed) {
        System.out.printf("fuzz %s: %,d inputs, seed %d (replay with -D%s=%d)%n", name, inputs, seed, SEED_PROPERTY, seed);
        long started = System.nanoTime();
        long startedCpu = CPU.getCurrentThreadCpuTime();
        SplittableRandom random = new SplittableRandom(seed);
        Mutator mutator = new Mutator(random);
        @SuppressWarnings("unchecked")
        T[] pool = (T[]) new Object[POOL];
        Buffer[] encoded = new Buffer[POOL];
        for (int i = 0; i < POOL; i++) {
            pool[i] = values.apply(random);
            encoded[i] = encoder.apply(pool[i]);
        }
        int roundTrips = 0;
        int rejected = 0;
        int acceptedDamaged = 0;
        for (int input = 0; input < inputs; input++) {
            if (input % REFRESH_EVERY == 0) {
                int slot = random.nextInt(POOL);
                pool[slot] = values.apply(random);
                encoded[slot] = encoder.apply(pool[slot]);
            }
            int pick = random.nextInt(POOL);
            boolean damaged = random.nextInt(UNDAMAGED_ONE_IN) != 0;
            Buffer bytes = !damaged ? encoded[pick].copy()
                    : json ? mutator.mutateJson(encoded[pick], encoded[random.nextInt(POOL)])
                    : mutator.mutate(encoded[pick], encoded[random.nextInt(POOL)]);
            T decoded;
            try {
                decoded = decoder.decode(bytes);
            } catch (Throwable e) {
                if (damaged && documentedError != null && documentedError.isInstance(e)) {
                    rejected++;
                    continue;
                }
                throw new AssertionError(failure(seed, input, bytes, damaged
                        ? "threw " + e + ", not " + (documentedError == null ? "nothing" : documentedError.getSimpleName())
                        : "rejected a valid encoding: " + e), e);
            }
            if (damaged) {
                acceptedDamaged++;
            } else if (!Objects.equals(view.apply(decoded), view.apply(pool[pick]))) {
                throw new AssertionError(failure(seed, input, bytes, "decoded " + decoded + " from the encoding of "
                        + pool[pick]));
            } else {
                roundTrips++;
            }
        }
        System.out.printf("fuzz %s: %,d valid round trips, %,d rejected, %,d damaged inputs accepted, %d ms (%d ms CPU)%n",
                name, roundTrips, rejected, acceptedDamaged, (System.nanoTime() - started) / 1_000_000,
                (CPU.getCurrentThreadCpuTime() - startedCpu) / 1_000_000);
        return new Outcome(seed, inputs, roundTrips, rejected, acceptedDamaged);
    }

    private String failure(long seed, int input, Buffer bytes, String what) {
        return "fuzz " + name + ", seed " + seed + " (replay with -D" + SEED_PROPERTY + "=" + seed + "), input #" + input
                + ": " + what + "; input (" + bytes.length() + " bytes): " + hex(bytes);
    }

    private static String hex(Buffer bytes) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length(), HEX_SHOWN); i++) {
            text.append(String.format("%02x", bytes.getByte(i) & 0xFF));
        }
        return bytes.length() > HEX_SHOWN ? text + "..." : text.toString();
    }
}
