package dev.canopy.cli.bench.segmentation;

import dev.canopy.cli.bench.namespaces.NamespaceJob;
import dev.canopy.cli.bench.namespaces.NamespaceMember;
import dev.canopy.cli.collectives.CalibrationReport;
import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.calibration.Calibration;
import dev.canopy.collectives.internal.calibration.MemberCalibration;
import dev.canopy.collectives.internal.calibration.SegmentationStore;
import dev.canopy.collectives.internal.segmentation.SegmentationThresholds;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.Canopy;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.core.comm.Communicator;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.TreeAlgorithm;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * One host of {@code canopy bench segmentation}, started by {@link NamespaceJob} in its own network namespace:
 * <ol>
 *   <li>calibrates as {@code canopy calibrate} does, but each host measuring its own side
 *       ({@link MemberCalibration}: native flat scatter and gather, timed on the root), and the root stores the
 *       detected thresholds in the job's ZooKeeper with the job's secret ({@link SegmentationStore});</li>
 *   <li>reads them back the way every joining session does ({@link Canopy#calibratedSettings}) and measures native
 *       against optimised side by side ({@link SideBySideRuns});</li>
 *   <li>the root keeps only the thresholds whose split paid off (as {@code canopy calibrate}), stores that
 *       document with both curves, and prints one {@value NamespaceJob#RESULT_LINE} line.</li>
 * </ol>
 * Arguments: {@code ADDRESS HOST_ZOOKEEPER RUN_JSON} ({@link SegmentationRun}).
 */
public final class SegmentationBenchMember {

    static final int ROOT = 0;

    private SegmentationBenchMember() {
    }

    public static void main(String[] args) {
        try (NamespaceMember member = NamespaceMember.start(args)) {
            SegmentationRun run = SegmentationRun.fromJson(new JsonObject(member.arguments().get(0)));
            JoinOptions options = member.options();
            String grid = options.grid().name();
            Communicator world = Blocking.await(member.node().join());
            Collectives nativeOps = new Collectives(world, ConfiguredPlans.of(world.members(), options.grid(),
                    LevelAlgorithms.everywhere(TreeAlgorithm.FLAT)), CollectiveSettings.defaults());
            SegmentationStore store = new SegmentationStore(member.vertx(), member.node().zooKeeper(), options.secret());

            Optional<Calibration.Result> calibrated = MemberCalibration.run(nativeOps, ROOT, run.sizes(),
                    run.calibrationRepetitions(), run.escalation());
            Optional<JsonObject> calibration = calibrated.map(result -> CalibrationReport.of(grid, world.size(), result,
                    Optional.empty(), run.escalation()));
            if (calibration.isPresent()) {
                Blocking.await(store.save(grid, calibration.get()));
            }
            Blocking.await(nativeOps.barrier());

            CollectiveSettings settings = Blocking.await(Canopy.calibratedSettings(member.vertx(), member.node(), options));
            SegmentationThresholds used = settings.thresholds();
            Optional<SideBySideRuns.Curves> compared = SideBySideRuns.run(nativeOps, nativeOps.withSettings(settings),
                    used, ROOT, run);
            JsonObject result = new JsonObject().put("rank", world.rank());
            if (compared.isPresent()) {
                JsonObject stored = CalibrationReport.of(grid, world.size(), compared.get().nativeRuns(),
                        Optional.of(compared.get().optimisedRuns()), run.escalation());
                Blocking.await(store.save(grid, stored));
                result.put("calibration", calibration.orElseThrow())
                        .put("used", used.toJson())
                        .put("comparison", stored);
            }
            NamespaceMember.print(NamespaceJob.RESULT_LINE + result.encode());
            // Nobody leaves before everyone has printed: a leaving member would fail the others' last operations.
            Blocking.await(nativeOps.barrier());
        }
    }
}
