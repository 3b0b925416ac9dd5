package dev.canopy.cli.bench.segmentation;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.calibration.Calibration;
import dev.canopy.collectives.internal.calibration.MemberCalibration;
import dev.canopy.collectives.internal.segmentation.SegmentationThresholds;
import dev.canopy.collectives.internal.segmentation.TimingSample;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A member's side of the comparison: native and optimised scatter and gather of every size, taking turns within
 * each repetition (native scatter, optimised scatter, native gather, optimised gather) so that the machine's
 * drift hits both alike; each timed on the root between barriers ({@link MemberCalibration#timeOnRoot}).
 */
final class SideBySideRuns {

    /** The native and the optimised curves (at the root), each with the thresholds the optimised runs used. */
    record Curves(Calibration.Result nativeRuns, Calibration.Result optimisedRuns) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(SideBySideRuns.class);

    private SideBySideRuns() {
    }

    /** Every member calls it; the curves at the root, empty elsewhere. */
    static Optional<Curves> run(Collectives nativeOps, Collectives optimised, SegmentationThresholds used, int root,
            SegmentationRun run) {
        List<TimingSample> nativeScatter = new ArrayList<>();
        List<TimingSample> optimisedScatter = new ArrayList<>();
        List<TimingSample> nativeGather = new ArrayList<>();
        List<TimingSample> optimisedGather = new ArrayList<>();
        for (int bytes : run.sizes()) {
            for (int repetition = 0; repetition < run.repetitions(); repetition++) {
                nativeScatter.add(timed(nativeOps, bytes, () -> MemberCalibration.scatter(nativeOps, bytes, root)));
                optimisedScatter.add(timed(optimised, bytes, () -> MemberCalibration.scatter(optimised, bytes, root)));
                nativeGather.add(timed(nativeOps, bytes, () -> MemberCalibration.gather(nativeOps, bytes, root)));
                optimisedGather.add(timed(optimised, bytes, () -> MemberCalibration.gather(optimised, bytes, root)));
            }
            if (nativeOps.rank() == root) {
                LOG.info("compared native and optimised scatter and gather of {} B", bytes);
            }
        }
        if (nativeOps.rank() != root) {
            return Optional.empty();
        }
        Calibration.Result before = Calibration.detect(nativeScatter, nativeGather);
        Calibration.Result after = Calibration.detect(optimisedScatter, optimisedGather);
        return Optional.of(new Curves(new Calibration.Result(before.scatter(), before.gather(), used),
                new Calibration.Result(after.scatter(), after.gather(), used)));
    }

    private static TimingSample timed(Collectives member, int bytes, Supplier<Future<?>> operation) {
        return new TimingSample(bytes, MemberCalibration.timeOnRoot(member, operation));
    }
}
