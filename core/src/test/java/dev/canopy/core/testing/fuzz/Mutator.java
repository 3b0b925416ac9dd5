package dev.canopy.core.testing.fuzz;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Damages valid encodings the ways hostile or broken peers do, from one seeded random source: bit
 * flips, interesting values written over 1-, 2-, 4- and 8-byte fields (0, -1, extremes, the input's
 * own length and its neighbours), length fields nudged by a little, truncations, extensions,
 * insertions, deletions, duplicated ranges, splices of two valid inputs and plain garbage; for JSON,
 * values swapped for other types and extremes. One to three mutations are stacked per input.
 */
public final class Mutator {

    private static final String[] JSON_VALUES = {"null", "true", "0", "-1", "1", "2147483648", "-2147483649",
        "9223372036854775808", "1e309", "-1e309", "0.5", "NaN", "\"\"", "\"x\"", "[]", "{}", "[null]", "{\"a\":1}",
        "[[[[[[[[]]]]]]]]", "\"" + "z".repeat(300) + "\""};

    private final SplittableRandom random;

    public Mutator(SplittableRandom random) {
        this.random = random;
    }

    /** {@code valid} damaged by one to three stacked mutations; {@code other} is a second valid input to splice in. */
    public Buffer mutate(Buffer valid, Buffer other) {
        byte[] bytes = valid.getBytes();
        for (int mutations = 1 + random.nextInt(3); mutations > 0; mutations--) {
            bytes = once(bytes, other);
        }
        return Buffer.buffer(bytes);
    }

    /** Like {@link #mutate}, but half the time a JSON-aware mutation: a value replaced by another type or an extreme. */
    public Buffer mutateJson(Buffer valid, Buffer other) {
        if (random.nextBoolean()) {
            return mutate(valid, other);
        }
        String text = valid.toString(StandardCharsets.UTF_8);
        for (int mutations = 1 + random.nextInt(3); mutations > 0; mutations--) {
            text = replaceJsonValue(text);
        }
        return Buffer.buffer(text);
    }

    private byte[] once(byte[] in, Buffer other) {
        return switch (random.nextInt(11)) {
            case 0 -> flipBits(in);
            case 1, 2 -> interestingField(in);
            case 3 -> nudgeInt(in);
            case 4 -> truncate(in);
            case 5 -> extend(in);
            case 6 -> insert(in);
            case 7 -> delete(in);
            case 8 -> duplicateRange(in);
            case 9 -> splice(in, other.getBytes());
            default -> garbage(in.length);
        };
    }

    private byte[] flipBits(byte[] in) {
        byte[] out = in.clone();
        if (out.length > 0) {
            for (int flips = 1 + random.nextInt(8); flips > 0; flips--) {
                int at = random.nextInt(out.length);
                out[at] ^= (byte) (1 << random.nextInt(8));
            }
        }
        return out;
    }

    private byte[] interestingField(byte[] in) {
        int width = new int[] {1, 2, 4, 4, 4, 8}[random.nextInt(6)];
        if (in.length < width) {
            return flipBits(in);
        }
        byte[] out = in.clone();
        // Fields of this codebase's layouts are mostly 4-byte aligned; favour aligned offsets.
        int at = random.nextBoolean() ? random.nextInt(in.length - width + 1)
                : random.nextInt((in.length - width) / width + 1) * width;
        long value = interestingValue(in.length, at);
        for (int i = 0; i < width; i++) {
            out[at + i] = (byte) (value >>> (8 * (width - 1 - i)));
        }
        return out;
    }

    private long interestingValue(int length, int offset) {
        long[] values = {0, 1, 2, -1, -2, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, Integer.MAX_VALUE, Integer.MIN_VALUE,
            Integer.MAX_VALUE - 1, Long.MAX_VALUE, Long.MIN_VALUE, length, length - offset, length - offset - 4,
            length - offset + 1, length + 1, length - 1, 1 << 16, 1 << 20, 1 << 24, 1 << 30};
        return values[random.nextInt(values.length)];
    }

    /** Adds a small delta to a big-endian int: an off-by-some length or count. */
    private byte[] nudgeInt(byte[] in) {
        if (in.length < 4) {
            return flipBits(in);
        }
        byte[] out = in.clone();
        int at = random.nextBoolean() ? random.nextInt(in.length - 3) : random.nextInt(in.length / 4) * 4;
        int value = ((out[at] & 0xFF) << 24) | ((out[at + 1] & 0xFF) << 16) | ((out[at + 2] & 0xFF) << 8) | (out[at + 3] & 0xFF);
        value += random.nextInt(-16, 17);
        out[at] = (byte) (value >>> 24);
        out[at + 1] = (byte) (value >>> 16);
        out[at + 2] = (byte) (value >>> 8);
        out[at + 3] = (byte) value;
        return out;
    }

    private byte[] truncate(byte[] in) {
        return java.util.Arrays.copyOf(in, in.length == 0 ? 0 : random.nextInt(in.length));
    }

    private byte[] extend(byte[] in) {
        byte[] out = java.util.Arrays.copyOf(in, in.length + 1 + random.nextInt(64));
        for (int i = in.length; i < out.length; i++) {
            out[i] = (byte) random.nextInt(256);
        }
        return out;
    }

    private byte[] insert(byte[] in) {
        int at = random.nextInt(in.length + 1);
        byte[] extra = garbage(1 + random.nextInt(16));
        byte[] out = new byte[in.length + extra.length];
        System.arraycopy(in, 0, out, 0, at);
        System.arraycopy(extra, 0, out, at, extra.length);
        System.arraycopy(in, at, out, at + extra.length, in.length - at);
        return out;
    }

    private byte[] delete(byte[] in) {
        if (in.length == 0) {
            return in;
        }
        int from = random.nextInt(in.length);
        int to = from + 1 + random.nextInt(Math.min(16, in.length - from));
        byte[] out = new byte[in.length - (to - from)];
        System.arraycopy(in, 0, out, 0, from);
        System.arraycopy(in, to, out, from, in.length - to);
        return out;
    }

    private byte[] duplicateRange(byte[] in) {
        if (in.length == 0) {
            return in;
        }
        int from = random.nextInt(in.length);
        int to = from + 1 + random.nextInt(Math.min(32, in.length - from));
        byte[] out = new byte[in.length + (to - from)];
        System.arraycopy(in, 0, out, 0, to);
        System.arraycopy(in, from, out, to, in.length - from);
        return out;
    }

    /** A prefix of one valid input followed by a suffix of another. */
    private byte[] splice(byte[] in, byte[] other) {
        int cut = random.nextInt(in.length + 1);
        int from = random.nextInt(other.length + 1);
        byte[] out = new byte[cut + other.length - from];
        System.arraycopy(in, 0, out, 0, cut);
        System.arraycopy(other, from, out, cut, other.length - from);
        return out;
    }

    private byte[] garbage(int around) {
        byte[] out = new byte[random.nextInt(Math.max(1, 2 * around) + 1)];
        random.nextBytes(out);
        return out;
    }

    /** Replaces the value after a random ':' , ',' or '[' with another JSON literal. */
    private String replaceJsonValue(String text) {
        if (text.isEmpty()) {
            return JSON_VALUES[random.nextInt(JSON_VALUES.length)];
        }
        int start = text.length();
        for (int tries = 0; tries < 8 && start == text.length(); tries++) {
            int at = random.nextInt(text.length());
            char c = text.charAt(at);
            if (c == ':' || c == ',' || c == '[') {
                start = at + 1;
            }
        }
        if (start >= text.length()) {
            return text;
        }
        int end = valueEnd(text, start);
        return text.substring(0, start) + JSON_VALUES[random.nextInt(JSON_VALUES.length)] + text.substring(end);
    }

    /** Where the JSON value starting at {@code start} ends (nested brackets and strings skipped). */
    private static int valueEnd(String text, int start) {
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '[' || c == '{') {
                depth++;
            } else if (c == ']' || c == '}' || c == ',') {
                if (depth == 0) {
                    return i;
                }
                if (c != ',') {
                    depth--;
                }
            }
        }
        return text.length();
    }
}
