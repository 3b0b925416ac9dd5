package dev.canopy.cli.collectives;

import dev.canopy.core.comm.PointToPoint;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * One warm-up flight over one direction of a connection: its bytes in chunks of at most {@link #CHUNK_BYTES}
 * (under any usual eager limit, so they leave at once instead of each waiting a rendezvous round trip), sent one
 * after another so the program's own messages to that peer can slip in between. Each chunk starts with the
 * flight's size (4 bytes, big-endian), so the receiver needs no agreed size and checks every chunk against it.
 */
final class WarmUpFlight {

    static final int CHUNK_BYTES = 64 << 10;
    private static final int HEADER_BYTES = Integer.BYTES;
    private static final int TAG = 0;

    private WarmUpFlight() {
    }

    /** Sends a flight of {@code bytes} (at least {@link WarmUpSizes#MIN_BYTES}) to {@code to}. */
    static Future<Void> send(PointToPoint warming, int to, int bytes) {
        return sendFrom(warming, to, bytes, 0);
    }

    private static Future<Void> sendFrom(PointToPoint warming, int to, int bytes, int sent) {
        if (sent >= bytes) {
            return Future.succeededFuture();
        }
        int length = Math.min(CHUNK_BYTES, bytes - sent);
        Buffer chunk = Buffer.buffer(new byte[length]).setInt(0, bytes);
        return warming.send(to, TAG, chunk).compose(written -> sendFrom(warming, to, bytes, sent + length));
    }

    /** Takes one flight from {@code from}; completes with its size, or fails naming what was wrong with it. */
    static Future<Integer> receive(PointToPoint warming, int from) {
        return receiveFrom(warming, from, -1, 0);
    }

    private static Future<Integer> receiveFrom(PointToPoint warming, int from, int flight, int received) {
        return warming.receive(from, TAG).compose(message -> {
            Buffer chunk = message.payload();
            String problem = problem(chunk, flight, received);
            if (problem != null) {
                return Future.failedFuture(new IllegalStateException("rank " + from
                        + " sent a malformed warm-up flight: " + problem + "; is it the same Canopy version?"));
            }
            int size = chunk.getInt(0);
            int now = received + chunk.length();
            return now == size ? Future.succeededFuture(size) : receiveFrom(warming, from, size, now);
        });
    }

    /** What is wrong with {@code chunk} after {@code received} bytes of a flight of {@code flight} (-1: first chunk). */
    private static String problem(Buffer chunk, int flight, int received) {
        if (chunk.length() < HEADER_BYTES || chunk.length() > CHUNK_BYTES) {
            return "a chunk of " + chunk.length() + " bytes (a warm-up chunk has " + HEADER_BYTES + " to "
                    + CHUNK_BYTES + ")";
        }
        int size = chunk.getInt(0);
        if (size < WarmUpSizes.MIN_BYTES || size > WarmUpSizes.MAX_BYTES) {
            return "a flight size of " + size + " bytes (" + WarmUpSizes.MIN_BYTES + " to " + WarmUpSizes.MAX_BYTES
                    + " expected)";
        }
        if (flight >= 0 && size != flight) {
            return "chunks of two flights (" + flight + " bytes, then " + size + ")";
        }
        if ((long) received + chunk.length() > size) {
            return "more than its flight's " + size + " bytes";
        }
        return null;
    }
}
