package dev.canopy.multicast.internal.testing;

import io.vertx.core.buffer.Buffer;

/**
 * Message contents derived from (seed, message number), so any receiver can check a message byte by
 * byte without keeping a copy: every byte depends on the message and on its position, so a lost,
 * repeated or misplaced fragment shows.
 */
public final class Payloads {

    private Payloads() {
    }

    public static Buffer of(long seed, int message, int length) {
        return Buffer.buffer(bytes(seed, message, length));
    }

    public static byte[] bytes(long seed, int message, int length) {
        byte[] bytes = new byte[length];
        long key = key(seed, message);
        for (int i = 0; i < length; i++) {
            bytes[i] = byteAt(key, i);
        }
        return bytes;
    }

    /** Null when {@code received} is message {@code message} of {@code length} bytes, else what differs. */
    public static String mismatch(long seed, int message, int length, Buffer received) {
        if (received.length() != length) {
            return "message " + message + " has " + received.length() + " bytes, " + length + " expected";
        }
        byte[] bytes = received.getBytes();
        long key = key(seed, message);
        for (int i = 0; i < length; i++) {
            if (bytes[i] != byteAt(key, i)) {
                return "message " + message + " differs at byte " + i + " of " + length;
            }
        }
        return null;
    }

    private static long key(long seed, int message) {
        long z = seed + (message + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        return z ^ (z >>> 27);
    }

    private static byte byteAt(long key, int index) {
        return (byte) (((index + 1) * key) >>> 56);
    }
}
