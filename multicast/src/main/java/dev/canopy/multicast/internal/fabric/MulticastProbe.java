package dev.canopy.multicast.internal.fabric;

import dev.canopy.multicast.internal.loop.OwnerLoop;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks at start that multicast really works between the members (no multicast route, a container,
 * a switch that filters it: all look alike from the sender). Every member multicasts a few small probe
 * datagrams to the group and listens for everyone else's; the result names the ranks it did not hear.
 * Members must start it at about the same time (after a barrier): the datagrams of a member that was not
 * listening yet are gone. The members then agree (an allreduce of {@link Result#works()}, say) to use
 * multicast or fall back to the point-to-point trees.
 *
 * <p>The probe takes the endpoint for itself (handler, posted buffers): give it one of its own and close
 * it afterwards. Runs on the owner loop; nothing blocks.
 *
 * <p>Probe datagram, big-endian: magic {@code 0x434D5052} "CMPR" (4), job key (8), rank (4).
 */
public final class MulticastProbe {

    static final int MAGIC = 0x434D5052;
    static final int BYTES = 16;

    /** What one member heard. */
    public record Result(int rank, Set<Integer> heard, List<Integer> missing) {

        public boolean works() {
            return missing.isEmpty();
        }

        @Override
        public String toString() {
            return works() ? "multicast works: rank " + rank + " heard every other member"
                    : "multicast does not work: rank " + rank + " heard nothing from rank(s) " + missing;
        }
    }

    private final Fabric fabric;
    private final MulticastGroup group;
    private final long job;
    private final int rank;
    private final int size;
    private final OwnerLoop loop;
    private final Set<Integer> heard = new TreeSet<>();
    private final Promise<Result> result = Promise.promise();
    private int sendsLeft;

    private MulticastProbe(Fabric fabric, MulticastGroup group, long job, int rank, int size, OwnerLoop loop) {
        this.fabric = fabric;
        this.group = group;
        this.job = job;
        this.rank = rank;
        this.size = size;
        this.loop = loop;
    }

    /**
     * Probes {@code group} for {@code duration}, sending {@code sends} datagrams spread over its first half;
     * completes early once every other member was heard and every datagram sent.
     */
    public static Future<Result> run(Fabric fabric, MulticastGroup group, long job, int rank, int size, OwnerLoop loop,
                                     Duration duration, int sends) {
        if (rank < 0 || rank >= size || sends < 1 || duration.isNegative() || duration.isZero()) {
            return Future.failedFuture(new IllegalArgumentException("multicast probe of rank " + rank + " of " + size
                    + " with " + sends + " sends over " + duration));
        }
        MulticastProbe probe = new MulticastProbe(fabric, group, job, rank, size, loop);
        probe.sendsLeft = sends;
        loop.execute(() -> probe.start(duration.toNanos(), sends));
        return probe.result.future();
    }

    private void start(long durationNanos, int sends) {
        fabric.receiveHandler(this::received);
        fabric.join(group);
        for (int i = 0; i < 2 * size; i++) {
            fabric.postReceive(ByteBuffer.allocate(fabric.mtu()));
        }
        long interval = Math.max(1, durationNanos / 2 / sends);
        sendOne(interval);
        loop.schedule(durationNanos, this::finish);
    }

    private void sendOne(long interval) {
        if (result.future().isComplete()) {
            return;
        }
        ByteBuffer datagram = ByteBuffer.allocate(BYTES).putInt(MAGIC).putLong(job).putInt(rank).flip();
        SendOutcome outcome = fabric.send(group, datagram);
        if (outcome != SendOutcome.SENT) {
            result.tryFail(new IllegalStateException("multicast probe: the " + fabric.kind()
                    + " fabric refused to send: " + outcome));
            return;
        }
        if (--sendsLeft > 0) {
            loop.schedule(interval, () -> sendOne(interval));
        } else if (heard.size() == size - 1) {
            finish();
        }
    }

    private void received(MulticastGroup from, ByteBuffer datagram) {
        if (from.equals(group) && datagram.remaining() == BYTES && datagram.getInt(0) == MAGIC
                && datagram.getLong(4) == job) {
            int sender = datagram.getInt(12);
            if (sender >= 0 && sender < size && sender != rank) {
                heard.add(sender);
            }
        }
        fabric.postReceive(datagram);
        if (heard.size() == size - 1 && sendsLeft == 0) {
            finish();
        }
    }

    private void finish() {
        List<Integer> missing = new ArrayList<>();
        for (int other = 0; other < size; other++) {
            if (other != rank && !heard.contains(other)) {
                missing.add(other);
            }
        }
        result.tryComplete(new Result(rank, Set.copyOf(heard), List.copyOf(missing)));
    }
}
