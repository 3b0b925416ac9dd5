package dev.canopy.collectives.internal.calibration;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.segmentation.EscalationDetector;
import dev.canopy.collectives.internal.segmentation.EscalationRange;
import dev.canopy.collectives.internal.segmentation.LeapDetector;
import dev.canopy.collectives.internal.segmentation.SegmentationThresholds;
import dev.canopy.collectives.internal.segmentation.SizeTimeCurve;
import dev.canopy.collectives.internal.segmentation.TimingSample;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BiFunction;

/**
 * Measures scatter and gather time against message size on a running communicator, the way
 * segmentation.md describes: a barrier before every operation so sizes do not
 * pipeline into each other, several repetitions per size; then detects the scatter leap S and the
 * gather escalation range [M1, M2]. The members must run the native operations (flat trees, no
 * thresholds). Blocking: call it from a plain thread with every member's {@link Collectives}.
 */
public final class Calibration {

    /** The measured curves and what was detected in them. */
    public record Result(SizeTimeCurve scatter, SizeTimeCurve gather, SegmentationThresholds thresholds) {

        /** This result, its escalation range marked as observed with {@code senders} processes sending to the root. */
        public Result observedWith(int senders) {
            return new Result(scatter, gather, new SegmentationThresholds(thresholds.scatterLeapBytes(),
                    thresholds.gatherEscalation().map(range -> range.observedWith(senders))));
        }
    }

    private static final LeapDetector LEAP = new LeapDetector(1.8);
    /** A sample twice its size's uncongested time and at least 1 ms above it; a size with 10 % such samples. */
    public static final EscalationDetector ESCALATION = new EscalationDetector(2.0, 1.0, 0.1);

    private Calibration() {
    }

    /** {@code sizes} are bytes per process; {@code members} indexed by rank. */
    public static Result run(List<Collectives> members, int root, List<Integer> sizes, int repetitions) {
        List<TimingSample> scatter = new ArrayList<>();
        List<TimingSample> gather = new ArrayList<>();
        int n = members.size();
        for (int bytes : sizes) {
            Buffer all = Buffer.buffer(new byte[bytes * n]);
            Buffer mine = Buffer.buffer(new byte[bytes]);
            for (int repetition = 0; repetition < repetitions; repetition++) {
                scatter.add(new TimingSample(bytes, time(members, root,
                        (member, isRoot) -> member.scatter(isRoot ? all : null, bytes, root))));
                gather.add(new TimingSample(bytes, time(members, root, (member, isRoot) -> member.gather(mine, root))));
            }
        }
        return detect(scatter, gather).observedWith(n - 1);
    }

    /** The curves of native scatter and gather samples and the thresholds detected in them ({@link #ESCALATION}). */
    public static Result detect(List<TimingSample> scatter, List<TimingSample> gather) {
        return detect(scatter, gather, ESCALATION);
    }

    /** As {@link #detect(List, List)}, gather escalations found by {@code escalation}. */
    public static Result detect(List<TimingSample> scatter, List<TimingSample> gather, EscalationDetector escalation) {
        SizeTimeCurve scatterCurve = SizeTimeCurve.of(scatter);
        SizeTimeCurve gatherCurve = SizeTimeCurve.of(gather);
        return new Result(scatterCurve, gatherCurve,
                new SegmentationThresholds(LEAP.detect(scatterCurve), escalation.detect(gatherCurve)));
    }

    /**
     * Barrier, then the operation on every member; the time from the root's start until every member
     * completed, in ms (a scatter's root finishes as soon as its sends are queued, so its own time
     * would say nothing).
     */
    private static double time(List<Collectives> members, int root, BiFunction<Collectives, Boolean, Future<?>> operation) {
        Blocking.await(Future.all(members.stream().map(Collectives::barrier).toList()));
        List<Future<?>> all = new ArrayList<>();
        for (Collectives member : members) {
            if (member.rank() != root) {
                all.add(operation.apply(member, false));
            }
        }
        long start = System.nanoTime();
        all.add(operation.apply(members.get(root), true));
        Blocking.await(Future.all(all));
        return (System.nanoTime() - start) / 1e6;
    }

    /**
     * Keeps only the thresholds that paid off: the scatter leap if split scatters from S on were not
     * slower (sum of medians) than the native ones, the gather range if barrier-separated gathers in
     * [M1, M2] were not slower. On a WAN the barriers can cost more than the congestion they avoid.
     */
    public static SegmentationThresholds keepImprovements(Result before, Result after) {
        SegmentationThresholds found = before.thresholds();
        OptionalLong leap = found.scatterLeapBytes();
        if (leap.isPresent() && medianSum(after.scatter(), leap.getAsLong(), Long.MAX_VALUE)
                > medianSum(before.scatter(), leap.getAsLong(), Long.MAX_VALUE)) {
            leap = OptionalLong.empty();
        }
        Optional<EscalationRange> range = found.gatherEscalation().filter(r ->
                medianSum(after.gather(), r.firstBytes(), r.lastBytes()) <= medianSum(before.gather(), r.firstBytes(), r.lastBytes()));
        return new SegmentationThresholds(leap, range);
    }

    private static double medianSum(SizeTimeCurve curve, long from, long to) {
        return curve.points().stream().filter(p -> p.bytes() >= from && p.bytes() <= to)
                .mapToDouble(SizeTimeCurve.Point::median).sum();
    }
}
