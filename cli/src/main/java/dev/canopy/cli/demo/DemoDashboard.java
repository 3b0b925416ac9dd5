package dev.canopy.cli.demo;

import dev.canopy.cli.FutureWait;
import dev.canopy.cli.dashboard.CommandDashboard;
import dev.canopy.cli.dashboard.UntilStopped;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.security.JobSecret;
import dev.canopy.dashboard.DashboardOptions;
import dev.canopy.dashboard.model.DashboardState;
import dev.canopy.dashboard.model.GridEvent;
import dev.canopy.dashboard.model.MeasuredRtts;
import dev.canopy.dashboard.record.CollectiveRecorder;
import dev.canopy.dashboard.record.RecordingObserver;
import dev.canopy.gridconfig.model.GridModel;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The demo's dashboard and what it shows: the ping matrix as the measured round trips, then recorded
 * collectives over WORLD on the level file's plan, one of them with a rank that starts late on purpose so the
 * skew report has someone to name; with {@code --duration}, a collective every 2 s until the time is up or
 * Ctrl-C. Blocking; runs on the demo's thread.
 */
final class DemoDashboard implements AutoCloseable {

    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(120);
    private static final long LATE_START_MS = 250;
    private static final long PERIOD_MS = 2_000;
    /** The shortest --duration with the plan leader's live re-plan; shorter runs re-plan on the demo's own measurements. */
    static final long REPLAN_MIN_SECONDS = 40;
    private static final Duration PLAN_SEEN_DEADLINE = Duration.ofSeconds(10);

    private final CommandDashboard served;
    private final GridModel grid;
    /** The demo job's secret: it seals the plans the re-plan steps publish. */
    private final JobSecret secret;
    private final CollectiveRecorder recorder;
    /** Every member's WORLD collectives by rank, reported to the recorder; a plan switch replaces them. */
    private final List<Collectives> collectives;
    private final PrintWriter out;

    private DemoDashboard(CommandDashboard served, GridModel grid, JobSecret secret, CollectiveRecorder recorder,
            List<Collectives> collectives, PrintWriter out) {
        this.served = served;
        this.grid = grid;
        this.secret = secret;
        this.recorder = recorder;
        this.collectives = collectives;
        this.out = out;
    }

    /** Starts the dashboard of the demo's job; {@code worlds} is every node's WORLD by rank. */
    /** @param registry where the nodes' Vert.x reports ({@code VertxMeters}); shown on {@code /metrics} */
    static DemoDashboard start(DashboardOptions options, String zooKeeper, JobId job, JobSecret secret, GridModel grid,
            List<Communicator> worlds, PrometheusMeterRegistry registry, PrintWriter out) {
        CollectiveRecorder recorder = new CollectiveRecorder();
        CommandDashboard served = CommandDashboard.startWithMeters(options, zooKeeper, job, Optional.of(secret), grid,
                Optional.of(recorder), registry, out);
        List<Collectives> collectives = new ArrayList<>(worlds.stream().map(world -> RecordingObserver.observe(
                new Collectives(world, ConfiguredPlans.of(world.members(), grid), CollectiveSettings.defaults()), recorder))
                .toList());
        return new DemoDashboard(served, grid, secret, recorder, collectives, out);
    }

    /** What the dashboard shows; the demo's other steps publish into it (e.g. the multicast counters). */
    DashboardState state() {
        return served.dashboard().state();
    }

    /** The ping matrix's median round trip per site pair, as the site-pair view's measured column. */
    void measured(List<Member> members, double[][] rtt) {
        Map<String, List<Double>> samples = new HashMap<>();
        for (int from = 0; from < members.size(); from++) {
            for (int to = 0; to < members.size(); to++) {
                String a = members.get(from).coordinates().site();
                String b = members.get(to).coordinates().site();
                if (!a.equals(b)) {
                    samples.computeIfAbsent(MeasuredRtts.key(a, b), k -> new ArrayList<>()).add(rtt[from][to]);
                }
            }
        }
        Map<String, Double> medians = new HashMap<>();
        samples.forEach((key, values) -> medians.put(key, median(values)));
        served.dashboard().state().measured(MeasuredRtts.of(medians));
    }

    /** A warm-up broadcast, one in which the last rank starts late on purpose, and an allreduce; prints the skew. */
    void showcase(Vertx vertx) {
        int late = collectives.size() - 1;
        await(all(c -> c.bcast(c.rank() == 0 ? Buffer.buffer(new byte[1024]) : null, 0)), "warm-up bcast");
        await(bcastWithLateRank(vertx, late, 64 * 1024), "bcast with a late rank");
        await(all(c -> c.allreduce(Buffer.buffer().appendDouble(c.rank()), ElementType.DOUBLE, BuiltInOp.SUM)),
                "allreduce");
        out.printf(Locale.ROOT, "recorded 3 collectives; rank %d started the second one %d ms late on purpose: %s%n", late,
                LATE_START_MS, lateRanksOf(1));
        out.flush();
    }

    /**
     * Slows down a WAN link and re-plans on the demo's own measurements ({@link MeasuredReplan}), printing the re-plan
     * events as the dashboard shows them.
     */
    void replanOnMeasurements(CanopyNode rankZero, List<Communicator> worlds, double[][] rtt, WanEmulator wan, int pings) {
        long[] seen = {served.dashboard().state().events().lastSequence()};
        new MeasuredReplan(grid, rankZero, secret, worlds, collectives, out, step -> await(step, "live re-plan"))
                .run(rtt, wan, pings, epoch -> {
                    awaitPlanShown(epoch);
                    seen[0] = printReplans(seen[0]);
                });
    }

    /** Reads ZooKeeper until the dashboard shows plan {@code epoch}. */
    private void awaitPlanShown(long epoch) {
        long end = System.nanoTime() + PLAN_SEEN_DEADLINE.toNanos();
        DashboardState state = served.dashboard().state();
        while (state.plan().map(plan -> plan.epoch() < epoch).orElse(true)) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("the dashboard did not see plan epoch " + epoch + " within "
                        + PLAN_SEEN_DEADLINE.toSeconds() + " s: " + state.sourceStatus());
            }
            await(served.dashboard().refresh(), "read plan epoch " + epoch);
        }
    }

    /**
     * A collective every 2 s (every fifth with a late rank) until {@code duration} is over or Ctrl-C. From
     * {@value #REPLAN_MIN_SECONDS} s on, the nodes also run live plans, the demo degrades a WAN link halfway, and
     * every round is a switch point to the leader's newest plan; re-plans are printed as they are published.
     */
    void keepRunning(Vertx vertx, Duration duration, UntilStopped running, List<CanopyNode> nodes, WanEmulator wan,
            List<Communicator> worlds) throws InterruptedException {
        if (duration.isZero()) {
            return;
        }
        out.printf(Locale.ROOT, "running for %d s (Ctrl-C ends it): a collective every %d s%n", duration.toSeconds(),
                PERIOD_MS / 1000);
        out.flush();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        Optional<DemoReplan> replan = duration.toSeconds() >= REPLAN_MIN_SECONDS
                ? Optional.of(DemoReplan.start(vertx, nodes, worlds, grid, secret, out)) : Optional.empty();
        try {
            boolean degraded = false;
            long seenEvents = served.dashboard().state().events().lastSequence();
            for (int round = 1; !running.stopped() && System.nanoTime() < end; round++) {
                if (replan.isPresent() && !degraded && System.nanoTime() > start + duration.toNanos() / 2) {
                    degraded = true;
                    replan.get().degrade(wan, grid, worlds);
                }
                if (replan.isPresent()) {
                    replan.get().adoptNewest(collectives);
                }
                int root = round % collectives.size();
                Future<?> operation = round % 5 == 0
                        ? bcastWithLateRank(vertx, (root + 1) % collectives.size(), 16 * 1024)
                        : all(c -> c.bcast(c.rank() == root ? Buffer.buffer(new byte[4096]) : null, root));
                await(operation, "collective " + round);
                seenEvents = printReplans(seenEvents);
                running.await(Duration.ofMillis(Math.min(PERIOD_MS, Math.max(1, (end - System.nanoTime()) / 1_000_000))));
            }
        } finally {
            replan.ifPresent(DemoReplan::close);
        }
    }

    /** Prints the re-plans the dashboard has seen since event {@code seen}; returns the last event's number. */
    private long printReplans(long seen) {
        long last = seen;
        for (GridEvent event : served.dashboard().state().events().since(seen)) {
            last = event.sequence();
            if (event.kind() == GridEvent.Kind.REPLAN) {
                JsonObject fields = event.toJson();
                out.printf(Locale.ROOT, "re-plan: epoch %d%s: %s%n", fields.getLong("epoch"),
                        fields.containsKey("predicted_gain_ms")
                                ? String.format(Locale.ROOT, " (predicted gain %.1f ms)", fields.getDouble("predicted_gain_ms"))
                                : "", event.detail());
                out.flush();
            }
        }
        return last;
    }

    private Future<Void> bcastWithLateRank(Vertx vertx, int late, int bytes) {
        List<Future<Buffer>> results = new ArrayList<>();
        for (Collectives member : collectives) {
            int rank = member.rank();
            Buffer data = rank == 0 ? Buffer.buffer(new byte[bytes]) : null;
            if (rank == late) {
                Promise<Buffer> delayed = Promise.promise();
                vertx.setTimer(LATE_START_MS, id -> member.bcast(data, 0).onComplete(delayed));
                results.add(delayed.future());
            } else {
                results.add(member.bcast(data, 0));
            }
        }
        return Future.all(results).mapEmpty();
    }

    private Future<Void> all(Function<Collectives, Future<?>> operation) {
        return Future.all(collectives.stream().map(operation).toList()).mapEmpty();
    }

    /** E.g. {@code rank 31 (kisti-b) 251 ms late: process}, from the recorder's operation number {@code index}. */
    private String lateRanksOf(int index) {
        JsonObject communicators = recorder.toJson(10);
        if (communicators.getJsonArray("communicators").isEmpty()) {
            return "not recorded";
        }
        var operations = communicators.getJsonArray("communicators").getJsonObject(0).getJsonArray("operations");
        JsonObject operation = operations.getJsonObject(operations.size() - 1 - index);
        List<String> late = new ArrayList<>();
        for (Object entry : operation.getJsonObject("skew").getJsonArray("late")) {
            JsonObject rank = (JsonObject) entry;
            if (!rank.getString("cause").equals("upstream")) {
                late.add(String.format(Locale.ROOT, "rank %d (%s) %.0f ms late: %s", rank.getInteger("rank"),
                        rank.getString("site"), rank.getDouble("late_ms"), rank.getString("cause")));
            }
        }
        return late.isEmpty() ? "nobody late" : String.join(", ", late);
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static <T> T await(Future<T> future, String step) {
        return FutureWait.await(future, STEP_TIMEOUT, "demo step '" + step + "'");
    }

    @Override
    public void close() {
        served.close();
    }
}
