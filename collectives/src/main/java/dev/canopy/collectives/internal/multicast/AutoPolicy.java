package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.collectives.data.ValueCodec;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import dev.canopy.probes.internal.forecast.TimeSeries;
import dev.canopy.probes.internal.forecast.TrimmedMean;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code auto}'s cost model while the communicator lives: the calibrated model ({@link PolicyCalibration}), each
 * policy's line scaled by how the real operations' times compared with it lately, as the probes' forecasters follow
 * a link. Every member must choose alike, so the model changes only at agreed points: each call takes a ticket
 * ({@link #next}, in call order, the same on every member); every {@link #REFRESH_EVERY}th ticket the members
 * allgather what they observed and every member folds the same observations, in the same order, into the same
 * model, which that call and the later ones use.
 *
 * <p>An observation is one member's time of one one-to-many call (its call until its future completed); an
 * operation's time is the largest over the members that reported it. A member reports the calls of the period
 * before the last one (tickets {@code [r - 2E, r - E)} at refresh {@code r}), so every call is reported once,
 * when it has long finished. The calibration measured each policy at two sizes; an observation corrects the side
 * it is nearer to (below or above their geometric mean), by the trimmed mean of that side's newest {@link #WINDOW}
 * ratios observed / calibrated, once it has {@link #MIN_SAMPLES} (a side without them takes the other side's
 * correction, or none), and the policy's line is drawn again through the two corrected points. Only the policies
 * that run are
 * observed: a policy the model overrates is not retried (the calibration at open measured all of them).
 */
final class AutoPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(AutoPolicy.class);

    static final int REFRESH_EVERY = 16;
    static final int WINDOW = 16;
    static final int MIN_SAMPLES = 3;
    private static final double TRIM = 0.25;
    private static final int FIELDS = 5; // ticket, policy, targets, bytes per target, micros

    /** A call's place in the sequence and the model it chooses by. */
    record Ticket(long index, Future<PolicyCostModel> model) {
    }

    private record Observation(long ticket, GroupPolicy policy, int targets, long bytesPerTarget, double micros) {
    }

    private final PolicyCostModel calibrated;
    private final NanoClock clock;
    /** Per policy, the ratios near the calibration's small size [0] and near its large size [1]; under this. */
    private final Map<GroupPolicy, TimeSeries[]> ratios = new EnumMap<>(GroupPolicy.class);
    private final List<Observation> observed = new ArrayList<>(); // this member's, not yet reported; under this
    private long tickets; // under this
    private Future<PolicyCostModel> model; // under this
    private PolicyCostModel latest; // the newest refreshed (or calibrated) model; under this

    AutoPolicy(PolicyCostModel calibrated, NanoClock clock) {
        this.calibrated = calibrated;
        this.clock = clock;
        this.model = Future.succeededFuture(calibrated);
        this.latest = calibrated;
        for (GroupPolicy policy : PolicyCostModel.PER_CALL) {
            ratios.put(policy, new TimeSeries[] {new TimeSeries(WINDOW), new TimeSeries(WINDOW)});
        }
    }

    /**
     * The next call's ticket; at every {@link #REFRESH_EVERY}th it starts the allgather of observations on
     * {@code allgather} (the communicator's, started now, in the caller's order of collectives) and the model of this
     * call and the later ones is the refreshed one.
     */
    synchronized Ticket next(Function<Buffer, Future<List<Buffer>>> allgather) {
        long index = ++tickets;
        if (index % REFRESH_EVERY == 0) {
            Future<List<Buffer>> gathered = allgather.apply(report(index));
            model = gathered.map(all -> fold(index, all));
        }
        return new Ticket(index, model);
    }

    /** The clock's now, to time a call with {@link #observe}. */
    long now() {
        return clock.nanoTime();
    }

    /** This member's call of {@code ticket} by {@code policy} took from {@code startNanos} to now. */
    synchronized void observe(long ticket, GroupPolicy policy, int targets, long bytesPerTarget, long startNanos) {
        observed.add(new Observation(ticket, policy, targets, bytesPerTarget, (clock.nanoTime() - startNanos) / 1e3));
    }

    /** The model of the newest refresh that completed (or the calibration). */
    synchronized PolicyCostModel current() {
        return latest;
    }

    PolicyCostModel calibrated() {
        return calibrated;
    }

    /** This member's observations of tickets {@code [refresh - 2E, refresh - E)}, removed from the pending ones. */
    private Buffer report(long refresh) {
        long from = refresh - 2L * REFRESH_EVERY;
        long to = refresh - REFRESH_EVERY;
        List<Double> values = new ArrayList<>();
        observed.removeIf(observation -> {
            if (observation.ticket() >= to) {
                return false;
            }
            if (observation.ticket() >= from) {
                values.add((double) observation.ticket());
                values.add((double) observation.policy().ordinal());
                values.add((double) observation.targets());
                values.add((double) observation.bytesPerTarget());
                values.add(observation.micros());
            }
            return true;
        });
        return ValueCodec.encode(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** Folds every member's report (the same list everywhere) into the ratios; the refreshed model. */
    private synchronized PolicyCostModel fold(long refresh, List<Buffer> reports) {
        Map<Long, Observation> slowest = new TreeMap<>();
        for (int rank = 0; rank < reports.size(); rank++) {
            for (Observation observation : decode(rank, refresh, reports.get(rank))) {
                slowest.merge(observation.ticket(), observation,
                        (one, other) -> one.micros() >= other.micros() ? one : other);
            }
        }
        double middle = Math.sqrt((double) smallBytes() * largeBytes());
        slowest.values().forEach(observation -> {
            long bytes = observation.targets() * observation.bytesPerTarget();
            ratios.get(observation.policy())[bytes < middle ? 0 : 1].add(observation.micros()
                    / Math.max(1, calibrated.micros(observation.policy(), observation.targets(),
                            observation.bytesPerTarget())));
        });
        Map<GroupPolicy, double[]> scales = new EnumMap<>(GroupPolicy.class);
        ratios.forEach((policy, sides) -> {
            double small = scale(sides[0]);
            double large = scale(sides[1]);
            scales.put(policy, new double[] {Double.isNaN(small) ? (Double.isNaN(large) ? 1 : large) : small,
                    Double.isNaN(large) ? (Double.isNaN(small) ? 1 : small) : large});
        });
        PolicyCostModel refreshed = calibrated.corrected(scales, smallBytes(), largeBytes());
        latest = refreshed;
        LOG.debug("auto after {} calls ({} operations observed): {}", refresh, slowest.size(), refreshed);
        return refreshed;
    }

    /** The trimmed mean of {@code side}, NaN with fewer than {@link #MIN_SAMPLES}. */
    private static double scale(TimeSeries side) {
        return side.size() < MIN_SAMPLES ? Double.NaN : new TrimmedMean(WINDOW, TRIM).forecast(side).orElse(1);
    }

    private long smallBytes() {
        return (long) calibrated.measuredTargets() * PolicyCalibration.SMALL_BYTES;
    }

    private long largeBytes() {
        return (long) calibrated.measuredTargets() * PolicyCalibration.LARGE_BYTES;
    }

    /** A member's report, checked: whole observations of the reported period, known policies, finite sizes. */
    private static List<Observation> decode(int rank, long refresh, Buffer report) {
        double[] values = ValueCodec.doubles(report);
        if (values.length % FIELDS != 0) {
            throw new MalformedMessageException("auto's observations from rank " + rank + ": " + values.length
                    + " numbers, not a multiple of " + FIELDS);
        }
        List<Observation> observations = new ArrayList<>();
        for (int i = 0; i < values.length; i += FIELDS) {
            double ticket = values[i];
            double policy = values[i + 1];
            if (!(ticket >= refresh - 2L * REFRESH_EVERY && ticket < refresh - REFRESH_EVERY)
                    || !isCallPolicy(policy) || !(values[i + 2] >= 1 && values[i + 2] < Integer.MAX_VALUE)
                    || !(values[i + 3] >= 0 && values[i + 3] < Long.MAX_VALUE)
                    || !(values[i + 4] >= 0 && values[i + 4] < Double.MAX_VALUE)) {
                throw new MalformedMessageException("auto's observations from rank " + rank + " at call " + refresh
                        + ": observation " + i / FIELDS + " is out of range (call, policy, targets, bytes, micros) "
                        + Arrays.toString(Arrays.copyOfRange(values, i, i + FIELDS)));
            }
            observations.add(new Observation((long) ticket, GroupPolicy.values()[(int) policy], (int) values[i + 2],
                    (long) values[i + 3], values[i + 4]));
        }
        return observations;
    }

    private static boolean isCallPolicy(double ordinal) {
        for (GroupPolicy policy : PolicyCostModel.PER_CALL) {
            if (ordinal == policy.ordinal()) {
                return true;
            }
        }
        return false;
    }
}
