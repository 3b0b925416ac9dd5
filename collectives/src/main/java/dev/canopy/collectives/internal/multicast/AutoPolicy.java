package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.collectives.data.ValueCodec;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import dev.canopy.probes.internal.forecast.TimeSeries;
import dev.canopy.probes.internal.forecast.TrimmedMean;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code auto}'s cost model while the communicator lives: the calibrated model ({@link PolicyCalibration}), each
 * calibrated point scaled by how the real operations' times compared with the model lately, as the probes'
 * forecasters follow a link. Every member must choose alike, so the model changes only at agreed points: each call
 * takes a ticket ({@link #next}, in call order, the same on every member); every {@link #REFRESH_EVERY}th ticket the
 * members start an allgather of what they observed, and every member folds the same observations, in the same order,
 * into the same model. The refresh stays off the calls' critical path: the allgather started at one refresh point is
 * adopted at the next one, {@link #REFRESH_EVERY} calls later, when it has long completed (a call there waits for it
 * only if it has not), so no timed call waits for a round of the members.
 *
 * <p>An observation is what one one-to-many call cost its user: from the root's start until the last target had its
 * piece ({@link CallTimer}, on the root's clock; the calibration times its runs the same way). Every
 * {@link #TIMED_EVERY}th call is timed (the timing costs each target one small word, the root {@link CallTimer#FAN_IN}).
 * (Until 2026-11-28 each member timed its own call and the largest counted, which missed the skew between the
 * members' starts: a target that calls after the multicast arrived sees none of its delivery.) A member reports the
 * calls of the period before the last one (tickets {@code [r - 2E, r - E)} at refresh {@code r}), so every call is
 * reported once, when it has long finished. An observation corrects its policy's predictions in its
 * own size class only ({@link PolicyCostModel#sizeClass}: the nearer calibrated target count, and the bytes sent
 * within a factor of two), by the trimmed mean of that class's newest {@link #WINDOW} ratios observed / calibrated,
 * once it has {@link #MIN_SAMPLES}; a class without them takes the nearest corrected class's factor until it has its
 * own ({@link PolicyCostModel#micros}). (Correcting the calibrated line's two points instead, as an earlier version
 * did, redrew the line from whatever observations were nearer and kept that line for good: the ratio of 28 KB scatters
 * moved the 458 KB point across the reliable sender's window, where a static multicast costs 40 times more, and auto
 * chose static for the 280 KB scatterv even after static's own 280 KB scatters had been observed.) Only the
 * policies that run are observed: a policy the model overrates is not retried (the calibration at open measured all
 * of them). The refreshed model chooses stickily ({@link PolicyCostModel#choose}): its incumbents are the previous
 * model's choices for the shapes observed so far, computed at the fold, so every member holds the same ones whatever
 * order its calls were decided in.
 */
final class AutoPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(AutoPolicy.class);

    static final int REFRESH_EVERY = 16;
    static final int WINDOW = 16;
    static final int MIN_SAMPLES = 3;
    /** Every this many calls one is timed ({@link Ticket#timed}). */
    static final int TIMED_EVERY = 4;
    /** The shapes whose choice is remembered for the next model (the oldest go first). */
    static final int INCUMBENTS = 256;
    private static final double TRIM = 0.25;
    private static final int FIELDS = 6; // ticket, policy, targets, bytes per target, shared, micros

    /** A call's place in the sequence and the model it chooses by. */
    record Ticket(long index, Future<PolicyCostModel> model) {

        /** Whether the call is timed for the model ({@link CallTimer}), the same on every member. */
        boolean timed() {
            return index % TIMED_EVERY == 0;
        }
    }

    private record Observation(long ticket, GroupPolicy policy, CallShape call, double micros) {
    }

    private final PolicyCostModel calibrated;
    /** Per policy, per size class, the ratios observed / calibrated; under this. */
    private final Map<GroupPolicy, Map<Integer, TimeSeries>> ratios = new EnumMap<>(GroupPolicy.class);
    private final List<Observation> observed = new ArrayList<>(); // this member's, not yet reported; under this
    private Map<CallShape, GroupPolicy> incumbents = Map.of(); // the latest model's choices, for the next; under this
    private final long[] choices = new long[GroupPolicy.values().length]; // auto's, by ordinal, at this member; under this
    private long tickets; // under this
    private Future<PolicyCostModel> model; // the model of the current period; under this
    private Future<PolicyCostModel> refreshing; // the refresh started at the last refresh point; under this
    private PolicyCostModel latest; // the newest refreshed (or calibrated) model; under this
    private PolicyCostModel lastModel; // the last decision's model, shape and policy; under this
    private CallShape lastCall;
    private GroupPolicy lastChoice;

    AutoPolicy(PolicyCostModel calibrated) {
        this.calibrated = calibrated;
        this.model = Future.succeededFuture(calibrated);
        this.refreshing = model;
        this.latest = calibrated;
        for (GroupPolicy policy : PolicyCostModel.PER_CALL) {
            ratios.put(policy, new TreeMap<>());
        }
    }

    /**
     * The next call's ticket; at every {@link #REFRESH_EVERY}th it adopts the refresh started at the previous one
     * and starts the allgather of observations on {@code allgather} (the communicator's, started now, in the
     * caller's order of collectives), which the next refresh point adopts.
     */
    synchronized Ticket next(Function<Buffer, Future<List<Buffer>>> allgather) {
        long index = ++tickets;
        if (index % REFRESH_EVERY == 0) {
            model = refreshing;
            Future<List<Buffer>> gathered = allgather.apply(report(index));
            refreshing = refreshing.compose(previous -> gathered).map(all -> fold(index, all));
        }
        return new Ticket(index, model);
    }

    /** The call of {@code ticket} by {@code policy} cost {@code micros} ({@link CallTimer}: reported by its root). */
    synchronized void observe(long ticket, GroupPolicy policy, CallShape call, double micros) {
        observed.add(new Observation(ticket, policy, call, micros));
    }

    /**
     * {@code auto}'s policy for {@code call} by {@code model} (the ticket's), counted. The decision of the last call
     * is remembered with its model and shape, since a program repeats its calls and the model changes only at refresh
     * points: in one JVM every member of a communicator decides on one event loop, so a decision that costs
     * microseconds before the JIT has compiled it (the cost model's lines and corrections) costs that many times the
     * member count per call (29 members: a tenth of a millisecond, a third of a one-to-five tree scatter).
     */
    synchronized GroupPolicy choose(PolicyCostModel model, CallShape call) {
        if (model != lastModel || !sameShape(call, lastCall)) {
            lastChoice = model.choose(call);
            lastModel = model;
            lastCall = call;
        }
        choices[lastChoice.ordinal()]++;
        return lastChoice;
    }

    /** {@code call} and {@code last} field by field (a record's {@code equals} is slow until the JIT compiled it). */
    private static boolean sameShape(CallShape call, CallShape last) {
        return last != null && call.targets() == last.targets() && call.bytesPerTarget() == last.bytesPerTarget()
                && call.shared() == last.shared();
    }

    /** How often {@code auto} chose each policy at this member so far. */
    synchronized Map<GroupPolicy, Long> choices() {
        Map<GroupPolicy, Long> counted = new EnumMap<>(GroupPolicy.class);
        for (GroupPolicy policy : GroupPolicy.values()) {
            if (choices[policy.ordinal()] > 0) {
                counted.put(policy, choices[policy.ordinal()]);
            }
        }
        return Map.copyOf(counted);
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
                CallShape call = observation.call();
                values.add((double) observation.ticket());
                values.add((double) observation.policy().ordinal());
                values.add((double) call.targets());
                values.add((double) call.bytesPerTarget());
                values.add(call.shared() ? 1.0 : 0.0);
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
        slowest.values().forEach(observation -> {
            double predicted = calibrated.micros(observation.policy(), observation.call());
            ratios.get(observation.policy()).computeIfAbsent(calibrated.sizeClass(observation.policy(),
                    observation.call()), sizeClass -> new TimeSeries(WINDOW)).add(observation.micros()
                    / Math.max(1, predicted));
            LOG.trace("auto observed call {}: {} of {} took {} us, calibrated {} us", observation.ticket(),
                    observation.policy().configName(), observation.call(), Math.round(observation.micros()),
                    Math.round(predicted));
        });
        Map<GroupPolicy, Map<Integer, Double>> corrections = new EnumMap<>(GroupPolicy.class);
        ratios.forEach((policy, byClass) -> {
            Map<Integer, Double> factors = new TreeMap<>();
            byClass.forEach((sizeClass, series) -> {
                double factor = scale(series);
                if (!Double.isNaN(factor)) {
                    factors.put(sizeClass, factor);
                }
            });
            if (!factors.isEmpty()) {
                corrections.put(policy, factors);
            }
        });
        PolicyCostModel refreshed = calibrated.withCorrections(corrections).withIncumbents(incumbents);
        incumbents = choicesOf(refreshed, slowest.values());
        latest = refreshed;
        LOG.debug("auto after {} calls ({} operations observed): {}", refresh, slowest.size(), refreshed);
        return refreshed;
    }

    /**
     * What {@code model} chooses for the shapes it already remembers and those just {@code observed} (in ticket
     * order, so alike everywhere): the next model's incumbents; at most {@link #INCUMBENTS}, the newest.
     */
    private Map<CallShape, GroupPolicy> choicesOf(PolicyCostModel model, Collection<Observation> observed) {
        Map<CallShape, GroupPolicy> choices = new LinkedHashMap<>();
        incumbents.keySet().forEach(shape -> choices.put(shape, model.choose(shape))); // ordered, unlike the model's
        observed.forEach(observation -> {
            choices.remove(observation.call());
            choices.put(observation.call(), model.choose(observation.call()));
        });
        List<CallShape> shapes = new ArrayList<>(choices.keySet());
        for (int i = 0; i < shapes.size() - INCUMBENTS; i++) {
            choices.remove(shapes.get(i));
        }
        return choices;
    }

    /** The trimmed mean of {@code ratios}, NaN with fewer than {@link #MIN_SAMPLES}. */
    private static double scale(TimeSeries ratios) {
        return ratios.size() < MIN_SAMPLES ? Double.NaN : new TrimmedMean(WINDOW, TRIM).forecast(ratios).orElse(1);
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
                    || !(values[i + 4] == 0 || values[i + 4] == 1)
                    || !(values[i + 5] >= 0 && values[i + 5] < Double.MAX_VALUE)) {
                throw new MalformedMessageException("auto's observations from rank " + rank + " at call " + refresh
                        + ": observation " + i / FIELDS + " is out of range (call, policy, targets, bytes, shared,"
                        + " micros) " + Arrays.toString(Arrays.copyOfRange(values, i, i + FIELDS)));
            }
            observations.add(new Observation((long) ticket, GroupPolicy.values()[(int) policy],
                    new CallShape((int) values[i + 2], (long) values[i + 3], values[i + 4] == 1), values[i + 5]));
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
