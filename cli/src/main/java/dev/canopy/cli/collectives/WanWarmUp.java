package dev.canopy.cli.collectives;

import dev.canopy.core.comm.Communicator;
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
        return step(warming, bytes, 1, 0, new ArrayList<>());
    }

    /**
     * Step {@code k} of a ring: send to {@code rank + k}, take from {@code rank - k} (each skipped when at this
     * process's site). So each process has one warm-up flight out and one in at a time: runs that sent all of
     * them at once (56 MiB through gridbed's delay router with one host per site) lost ZooKeeper sessions on the
     * loaded 2-core machine (docs/transport.md).
     * A flight of the wrong size is noted and the ring goes on (stopping would leave later steps' peers waiting);
     * the warm-up fails at its end.
     */
    private static Future<Result> step(Communicator warming, int bytes, int k, int remoteSoFar, List<String> wrongSizes) {
        int size = warming.size();
        if (k >= size) {
            if (!wrongSizes.isEmpty()) {
                return Future.failedFuture(new IllegalStateException("WAN warm-up: " + String.join(", ", wrongSizes)
                        + " where " + bytes + " were agreed; give every process the same --warm-wan"));
            }
            return Future.succeededFuture(new Result(remoteSoFar, (long) remoteSoFar * bytes));
        }
        int me = warming.rank();
        int to = (me + k) % size;
        int from = (me - k + size) % size;
        List<Future<?>> transfers = new ArrayList<>(2);
        if (atAnotherSite(warming, to)) {
            transfers.add(warming.send(to, TAG, Buffer.buffer(new byte[bytes])));
        }
        if (atAnotherSite(warming, from)) {
            transfers.add(warming.receive(from, TAG).map(message -> {
                if (message.payload().length() != bytes) {
                    wrongSizes.add("rank " + from + " sent " + message.payload().length() + " bytes");
                }
                return message;
            }));
        }
        int remote = remoteSoFar + (atAnotherSite(warming, to) ? 1 : 0);
        return Future.all(transfers).compose(done -> step(warming, bytes, k + 1, remote, wrongSizes));
    }

    private static boolean atAnotherSite(Communicator warming, int rank) {
        return !warming.member(rank).coordinates().site().equals(warming.member(warming.rank()).coordinates().site());
    }
}
