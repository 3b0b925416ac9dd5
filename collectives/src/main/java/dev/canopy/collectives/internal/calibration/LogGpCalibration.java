package dev.canopy.collectives.internal.calibration;

import dev.canopy.collectives.Blocking;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.Message;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.tree.LogGpParameters;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * Measures the LogGP parameters of a running deployment with its own point-to-point messages, from rank 0 to
 * one partner per link level (the first rank whose closest shared level with rank 0 is that level):
 *
 * <ul>
 *   <li>a burst of {@code n} messages of {@code m} bytes, the receiver acknowledging the last: the sender is
 *       done after {@code n * o} for small messages (its sends' futures complete when written), and the
 *       acknowledgement arrives {@code (n - 1) * s(m)} after that of a single message, where
 *       {@code s(m) = max(o + m G, g)} is what the runtime's sends cost one after another;</li>
 *   <li>so, on the finest pair: {@code o} from the small burst's send time, {@code g = s(small)} from its
 *       acknowledgement, {@code G = (s(large) - o) / large} (0 when the finest pair is in different sites,
 *       whose uplink the model charges on its own);</li>
 *   <li>per level, {@code L = rtt / 2 - max(o, g)} of a small ping-pong: the time one hop adds beyond its
 *       sender's {@code s}, which is exactly how the cost model charges a hop.</li>
 * </ul>
 *
 * Medians of {@code repetitions} samples each, after ping-pongs that open the connection and let an emulated
 * WAN settle (the emulation corrects its delays by the real hop's latency it observes, which the connection's
 * opening inflates at first). Large messages never cross sites here: megabyte frames would skew that estimate. Blocking: call it from a plain thread with every member of one
 * communicator (the emulated grid of {@code canopy calibrate}); only ranks 0 and the partners exchange messages,
 * on a tag of their own.
 */
public final class LogGpCalibration {

    /** The parameters and what they came from (partners, medians), for the report. */
    public record Result(LogGpParameters parameters, JsonObject measurements) {
    }

    static final int SMALL_BYTES = 8;
    static final int LARGE_BYTES = 1 << 20;
    private static final int SMALL_BURST = 32;
    private static final int LARGE_BURST = 8;
    /** Ping-pongs before a partner's latency is measured: the connection opens, and an emulated WAN settles. */
    private static final int WARM_UP_PING_PONGS = 16;
    private static final int TAG = 0x4C47;
    private static final int ACK_TAG = TAG + 1;

    private LogGpCalibration() {
    }

    /** @param world every member's communicator, indexed by rank */
    public static Result run(List<Communicator> world, int repetitions) {
        if (world.size() < 2) {
            throw new IllegalArgumentException("LogGP calibration needs at least two processes; the grid has " + world.size());
        }
        if (repetitions < 2) {
            throw new IllegalArgumentException("LogGP calibration needs at least 2 repetitions, got " + repetitions);
        }
        Map<Level, Integer> partners = partnersByLevel(world);
        Communicator root = world.get(0);
        // the finest level's partner measures o, g and G: the least of the network is in its way
        Level finest = partners.keySet().stream().reduce((coarser, finer) -> finer).orElseThrow();
        Communicator near = world.get(partners.get(finest));
        boolean sameSite = finest.compareTo(Level.LAN) >= 0;
        pingPongMs(root, near); // opens the connection
        if (sameSite) {
            burst(root, near, LARGE_BURST, LARGE_BYTES);
        }
        double overheadMs = median(repetitions, () -> burst(root, near, SMALL_BURST, SMALL_BYTES).sentMs() / SMALL_BURST);
        double gapMs = Math.max(0, burstSlopeMs(root, near, SMALL_BURST, SMALL_BYTES, repetitions));
        double largeMs = sameSite ? burstSlopeMs(root, near, LARGE_BURST, LARGE_BYTES, repetitions) : 0;
        double perByteMs = sameSite ? Math.max(0, (largeMs - overheadMs) / LARGE_BYTES) : 0;

        Map<Level, Double> latencies = new EnumMap<>(Level.class);
        JsonObject oneWay = new JsonObject();
        JsonObject partnerRanks = new JsonObject();
        for (Map.Entry<Level, Integer> partner : partners.entrySet()) {
            Communicator far = world.get(partner.getValue());
            for (int i = 0; i < WARM_UP_PING_PONGS; i++) {
                pingPongMs(root, far);
            }
            double halfRtt = median(repetitions, () -> pingPongMs(root, far) / 2);
            latencies.put(partner.getKey(), Math.max(0, halfRtt - Math.max(overheadMs, gapMs)));
            oneWay.put(partner.getKey().configName(), halfRtt);
            partnerRanks.put(partner.getKey().configName(), partner.getValue());
        }
        LogGpParameters parameters = new LogGpParameters(overheadMs, gapMs, perByteMs, latencies);
        JsonObject measurements = new JsonObject().put("partners", partnerRanks).put("repetitions", repetitions)
                .put("one_way_ms", oneWay).put("o_g_G_measured_at", finest.configName())
                .put("small_bytes", SMALL_BYTES).put("large_bytes", LARGE_BYTES)
                .put("large_send_ms", sameSite ? largeMs : null);
        return new Result(parameters, measurements);
    }

    /** For every link level some rank shares with rank 0 as its closest, the first such rank; coarsest level first. */
    static Map<Level, Integer> partnersByLevel(List<Communicator> world) {
        Coordinates root = world.get(0).member(0).coordinates();
        Map<Level, Integer> partners = new EnumMap<>(Level.class);
        for (int rank = 1; rank < world.size(); rank++) {
            partners.putIfAbsent(root.linkLevel(world.get(0).member(rank).coordinates()), rank);
        }
        return partners;
    }

    /** {@code s(m)}: how much later the acknowledgement of {@code count} messages comes than that of one. */
    private static double burstSlopeMs(Communicator from, Communicator to, int count, int bytes, int repetitions) {
        double many = median(repetitions, () -> burst(from, to, count, bytes).ackedMs());
        double one = median(repetitions, () -> burst(from, to, 1, bytes).ackedMs());
        return (many - one) / (count - 1);
    }

    private record Burst(double sentMs, double ackedMs) {
    }

    private static Burst burst(Communicator from, Communicator to, int count, int bytes) {
        int sender = from.rank();
        int receiver = to.rank();
        List<Future<Message>> received = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            received.add(to.receive(sender, TAG));
        }
        Future<Void> acknowledged = Future.all(received).compose(all -> to.send(sender, ACK_TAG, Buffer.buffer(1)));
        Future<Message> ack = from.receive(receiver, ACK_TAG);
        Buffer payload = Buffer.buffer(new byte[bytes]);
        List<Future<Void>> sends = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            sends.add(from.send(receiver, TAG, payload));
        }
        Blocking.await(Future.all(sends));
        long sent = System.nanoTime();
        Blocking.await(ack);
        long acked = System.nanoTime();
        Blocking.await(acknowledged);
        return new Burst((sent - start) / 1e6, (acked - start) / 1e6);
    }

    private static double pingPongMs(Communicator from, Communicator to) {
        int sender = from.rank();
        int receiver = to.rank();
        Future<Void> echoed = to.receive(sender, TAG).compose(message -> to.send(sender, TAG, message.payload()));
        Future<Message> back = from.receive(receiver, TAG);
        long start = System.nanoTime();
        from.send(receiver, TAG, Buffer.buffer(new byte[SMALL_BYTES]));
        Blocking.await(back);
        long end = System.nanoTime();
        Blocking.await(echoed);
        return (end - start) / 1e6;
    }

    private static double median(int repetitions, DoubleSupplier sample) {
        double[] samples = new double[repetitions];
        for (int i = 0; i < repetitions; i++) {
            samples[i] = sample.getAsDouble();
        }
        Arrays.sort(samples);
        return repetitions % 2 == 1 ? samples[repetitions / 2] : (samples[repetitions / 2 - 1] + samples[repetitions / 2]) / 2;
    }
}
