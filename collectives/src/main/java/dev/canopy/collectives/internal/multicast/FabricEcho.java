package dev.canopy.collectives.internal.multicast;

import dev.canopy.multicast.internal.fabric.Fabric;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.loop.OwnerLoop;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.OptionalDouble;

/**
 * Measures the fabric's round trip on the running deployment, for {@code auto}'s cost model (its multicast
 * flight {@code T_mc} is half of it): the group's first member multicasts PINGs, every other member multicasts
 * a PONG for each, and the pinger takes the time from a PING to the first PONG for it. A PING that finds
 * nobody listening yet (a member still probing) is simply sent again. Runs on the endpoint's owner loop after
 * the {@code MulticastProbe} on the same endpoint (whose posted buffers it reuses); nothing blocks.
 *
 * <p>Datagram, big-endian: magic {@code 0x434D4543} "CMEC" (4), job key (8), type (1: PING, 2: PONG, 3: DONE),
 * sequence (4).
 */
final class FabricEcho {

    static final int MAGIC = 0x434D4543;
    static final int BYTES = 17;
    static final int SAMPLES = 8;
    private static final byte PING = 1;
    private static final byte PONG = 2;
    private static final byte DONE = 3;
    private static final long RESEND_NANOS = Duration.ofMillis(5).toNanos();

    private final Fabric fabric;
    private final MulticastGroup group;
    private final long job;
    private final OwnerLoop loop;
    private final Promise<OptionalDouble> result = Promise.promise();
    private final double[] samples = new double[SAMPLES];
    private int sampled;
    private int sequence;
    private long sentAt;

    private FabricEcho(Fabric fabric, MulticastGroup group, long job, OwnerLoop loop) {
        this.fabric = fabric;
        this.group = group;
        this.job = job;
        this.loop = loop;
    }

    /**
     * At group-local rank 0, the median round trip in microseconds of up to {@value #SAMPLES} PINGs sent within
     * {@code duration} (empty if no PONG came back); elsewhere answers PINGs until the pinger is done or
     * {@code duration} has passed, and completes empty. The endpoint must have joined {@code group}.
     */
    static Future<OptionalDouble> run(Fabric fabric, MulticastGroup group, long job, int localRank, OwnerLoop loop,
            Duration duration) {
        FabricEcho echo = new FabricEcho(fabric, group, job, loop);
        loop.execute(() -> {
            fabric.receiveHandler(localRank == 0 ? echo::pingerReceived : echo::responderReceived);
            loop.schedule(duration.toNanos(), echo::finish);
            if (localRank == 0) {
                echo.ping();
            }
        });
        return echo.result.future();
    }

    private void ping() {
        if (result.future().isComplete()) {
            return;
        }
        int sent = ++sequence;
        sentAt = loop.nanoTime();
        send(PING, sent);
        loop.schedule(RESEND_NANOS, () -> {
            if (sequence == sent) {
                ping(); // no PONG yet: a member may still be probing
            }
        });
    }

    private void pingerReceived(MulticastGroup from, ByteBuffer datagram) {
        // The first PONG for the PING in flight counts; the other members' PONGs for it come too late.
        if (!result.future().isComplete() && isEcho(from, datagram) && datagram.get(12) == PONG
                && datagram.getInt(13) == sequence) {
            samples[sampled++] = (loop.nanoTime() - sentAt) / 1e3;
            if (sampled == SAMPLES) {
                finish();
            } else {
                ping();
            }
        }
        fabric.postReceive(datagram.clear());
    }

    private void responderReceived(MulticastGroup from, ByteBuffer datagram) {
        if (isEcho(from, datagram)) {
            if (datagram.get(12) == PING) {
                send(PONG, datagram.getInt(13));
            } else if (datagram.get(12) == DONE) {
                result.tryComplete(OptionalDouble.empty());
            }
        }
        fabric.postReceive(datagram.clear());
    }

    private boolean isEcho(MulticastGroup from, ByteBuffer datagram) {
        return from.equals(group) && datagram.remaining() == BYTES && datagram.getInt(0) == MAGIC
                && datagram.getLong(4) == job;
    }

    private void finish() {
        if (result.future().isComplete()) {
            return;
        }
        if (sequence == 0) { // a responder whose pinger never said DONE
            result.complete(OptionalDouble.empty());
            return;
        }
        for (int i = 0; i < 3; i++) {
            send(DONE, 0);
        }
        if (sampled == 0) {
            result.complete(OptionalDouble.empty());
            return;
        }
        double[] taken = Arrays.copyOf(samples, sampled);
        Arrays.sort(taken);
        result.complete(OptionalDouble.of(taken[taken.length / 2]));
    }

    private void send(byte type, int number) {
        fabric.send(group, ByteBuffer.allocate(BYTES).putInt(MAGIC).putLong(job).put(type).putInt(number).flip());
    }
}
