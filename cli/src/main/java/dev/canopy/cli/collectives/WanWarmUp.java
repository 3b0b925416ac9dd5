package dev.canopy.cli.collectives;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.Message;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code canopy node --warm-wan BYTES}: before the program runs, every process sends {@code BYTES} to every
 * process at another site and takes theirs, over a private split of WORLD (its own context: the program's
 * messages never meet these), so that each WAN connection has carried one bulk flight.
 *
 * <p>Why (docs/transport.md, "Where the 64 KB broadcast's time went"): under Linux's BBR congestion control a
 * connection paces its data at about 2.9 times the highest delivery rate it has measured. A connection that has
 * only ever carried messages of {@code B} bytes between idle periods measures at most about {@code B} per round
 * trip, so it spreads every message larger than its initial window over roughly half a round trip (on grid8's
 * 220 ms hops to tok and syd, 64 KB took 90 to 130 ms to leave the relay). One flight of a megabyte raises the
 * measured rate, and while BBR is in its start-up phase (which the rounds of such connections, limited by the
 * application, never end) it does not lower the pacing rate again. Under CUBIC, a connection restarts from its
 * initial window after every idle period unless {@code net.ipv4.tcp_slow_start_after_idle} is 0, and then warming
 * does not last.
 */
final class WanWarmUp {

    /** Larger warm-ups are refused: a megabyte or two does the job, and each goes to every remote process. */
    static final int MAX_BYTES = 64 << 20;
    private static final int TAG = 0;

    /** What a warm-up did at one process. */
    record Result(int remoteProcesses, long bytesSent) {
    }

    private WanWarmUp() {
    }

    /**
     * Collective over {@code world}: every member must call it with the same {@code bytes} (0 exchanges nothing
     * but still takes part in the split).
     */
    static Future<Result> run(Communicator world, int bytes) {
        requireValid(bytes);
        return world.split(0, world.rank()).compose(warming -> exchange(warming, bytes)
                .eventually(warming::free));
    }

    /** Refuses a size outside 0 to {@link #MAX_BYTES}, naming the option. */
    static void requireValid(int bytes) {
        if (bytes < 0 || bytes > MAX_BYTES) {
            throw new IllegalArgumentException("--warm-wan " + bytes + ": give 0 (no warm-up) to " + MAX_BYTES
                    + " bytes, the same on every process");
        }
    }

    private static Future<Result> exchange(Communicator warming, int bytes) {
        if (bytes == 0) {
            return Future.succeededFuture(new Result(0, 0));
        }
        String site = warming.member(warming.rank()).coordinates().site();
        List<Future<?>> transfers = new ArrayList<>();
        int remote = 0;
        for (int rank = 0; rank < warming.size(); rank++) {
            if (warming.member(rank).coordinates().site().equals(site)) {
                continue;
            }
            remote++;
            int source = rank;
            transfers.add(warming.send(rank, TAG, Buffer.buffer(new byte[bytes])));
            transfers.add(warming.receive(rank, TAG).map(message -> checked(message, source, bytes)));
        }
        int remoteProcesses = remote;
        return Future.all(transfers).map(done -> new Result(remoteProcesses, (long) remoteProcesses * bytes));
    }

    private static Message checked(Message message, int source, int bytes) {
        if (message.payload().length() != bytes) {
            throw new IllegalStateException("WAN warm-up: rank " + source + " sent " + message.payload().length()
                    + " bytes where " + bytes + " were agreed; give every process the same --warm-wan");
        }
        return message;
    }
}
