package dev.canopy.cli.demo;

import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.internal.leader.LatencySnapshot;
import dev.canopy.collectives.internal.leader.PlanEvaluator;
import dev.canopy.collectives.internal.leader.PlanStore;
import dev.canopy.collectives.internal.leader.PublishedPlan;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.Member;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * The live re-plan of the demo's default run, in seconds: the probes and the plan leader of {@code --duration 40}
 * and more need about a minute to see a change and confirm it, so here the demo itself measures and plans. It
 * measures the round trips between the sites (one rank per site, every pair at once; within a site the ping
 * matrix's), publishes a plan on them as the job's first epoch and moves every member to it; slows down the first
 * WAN link of rank 0's tree ({@link WanSlowdown}); measures the sites again, plans on that and publishes the next
 * epoch through the {@link PlanStore}, fenced on
 * rank 0's member znode, with the reason and the gain the plan leader would give; and moves every member to it at
 * the same point (between two collectives the demo drives). The dashboard shows both epochs as re-plan events.
 * Printed: the link, the re-plan, rank 0's wide-area tree edges before and after, and the bcast timings before the
 * slowdown, after it on the old trees and on the new plan, each beside the plan's prediction. Blocking.
 */
final class MeasuredReplan {

    private static final int TIMED = 3;
    private static final int BYTES = 1024;
    /** A member pair's latency counts as moved when it changed by more than this fraction (as the leader says). */
    private static final double MOVED = 0.5;
    private static final int MOVES_SHOWN = 3;

    private final GridModel grid;
    private final PrintWriter out;
    private final Function<Future<?>, Object> await;
    private final List<Communicator> worlds;
    private final List<Collectives> members;
    private final HierarchicalPlanner planner;
    private final PlanEvaluator evaluator;
    private final PlanStore store;
    private final String fence;

    /**
     * @param rankZero the node of rank 0, which publishes (its member znode fences the publication)
     * @param members every member's recorded collectives, by rank; a plan switch replaces them
     * @param await waits for a demo step, failing the demo when it fails or takes too long
     */
    MeasuredReplan(GridModel grid, CanopyNode rankZero, JobSecret secret, List<Communicator> worlds, List<Collectives> members,
            PrintWriter out, Function<Future<?>, Object> await) {
        this.grid = grid;
        this.out = out;
        this.await = await;
        this.worlds = worlds;
        this.members = members;
        this.planner = new HierarchicalPlanner(LevelChoices.of(grid.levels()), ConfiguredPlans.COST);
        Map<String, Coordinates> coordinates = new LinkedHashMap<>();
        for (Member member : worlds.get(0).members()) {
            coordinates.put(TopologyPlan.nameOf(member), member.coordinates());
        }
        this.evaluator = PlanEvaluator.everyRoot(Hierarchy.of(coordinates), planner);
        this.store = new PlanStore(rankZero.context(), rankZero.zooKeeper(), rankZero.job(), secret);
        this.fence = "/members/" + rankZero.id().value();
    }

    /**
     * Runs it; {@code measured} is the demo's ping matrix (round trips by rank). {@code showReplan} prints the re-plan
     * event of an epoch once the dashboard has it.
     */
    void run(double[][] measured, WanEmulator wan, int pings, LongConsumer showReplan) {
        long started = System.nanoTime();
        await.apply(store.ensureCreated());
        Communicator world = worlds.get(0);
        List<Integer> representatives = firstRankOfEachSite(world);
        LatencySnapshot before = snapshot(withSites(measured, representatives, measureSites(representatives, pings)));
        double firstPredicted = evaluator.completionMs(before);
        PublishedPlan first = publishAndSwitch(before, firstPredicted, String.format(Locale.ROOT,
                "first plan of the job, on the demo's measurements: predicts %.3f ms", firstPredicted));
        showReplan.accept(first.epoch());
        TopologyPlan firstTrees = first.collectivePlan(worlds.get(0).members(), planner);
        double beforeMs = timeBcast();
        Optional<String> link = WanSlowdown.degradeFirstLink(wan, firstTrees.tree(0), world);
        if (link.isEmpty()) {
            out.println("no WAN link in rank 0's tree to slow down: no re-plan to show");
            return;
        }
        out.println("degraded WAN link " + link.get() + "; measuring the sites' round trips again");
        out.flush();
        double slowedMs = timeBcast();
        long measuring = System.nanoTime();
        double[][] sites = measureSites(representatives, pings);
        out.printf(Locale.ROOT, "measured %d site pairs in %.1f s%n", representatives.size() * (representatives.size() - 1),
                (System.nanoTime() - measuring) / 1e9);
        LatencySnapshot after = snapshot(withSites(measured, representatives, sites));
        double newPredicted = evaluator.completionMs(after);
        double oldOnNew = evaluator.completionMsOn(before, after);
        PublishedPlan next = publishAndSwitch(after, newPredicted, String.format(Locale.ROOT,
                "re-plan: new plan %.3f ms vs current %.3f ms on the demo's measurements after slowing down %s (%+.1f %%); "
                        + "links moved: %s", newPredicted, oldOnNew, link.get(), 100 * (newPredicted - oldOnNew) / oldOnNew,
                moves(after.movesSince(before, MOVED))));
        showReplan.accept(next.epoch());
        TopologyPlan nextTrees = next.collectivePlan(world.members(), planner);
        double afterMs = timeBcast();
        out.printf(Locale.ROOT, "rank 0's wide-area tree edges before: %s%n", wideAreaEdges(firstTrees.tree(0), world));
        out.printf(Locale.ROOT, "rank 0's wide-area tree edges now:    %s%n", wideAreaEdges(nextTrees.tree(0), world));
        out.printf(Locale.ROOT, "bcast of %d bytes from rank 0, median of %d:%n", BYTES, TIMED);
        out.print(TextTable.of(Column.text("plan"), Column.decimal("measured", "ms", 1), Column.decimal("predicted", "ms", 1))
                .row("first plan, before the slowdown", beforeMs, firstTrees.hierarchicalPlan(0).predictedCompletionMs())
                .row("first plan, on the slowed link", slowedMs, firstTrees.hierarchicalPlan(0).predictedCompletionMsOn(after))
                .row("new plan", afterMs, nextTrees.hierarchicalPlan(0).predictedCompletionMs())
                .render());
        out.printf(Locale.ROOT, "(the live re-plan took %.1f s)%n%n", (System.nanoTime() - started) / 1e9);
        out.flush();
    }

    /** Publishes the next epoch and moves every member to it. */
    private PublishedPlan publishAndSwitch(LatencySnapshot latencies, double predictedMs, String reason) {
        long epoch = (Long) await.apply(store.currentEpoch()) + 1;
        PublishedPlan plan = new PublishedPlan(epoch, latencies, predictedMs, reason);
        Object outcome = await.apply(store.publish(plan, fence));
        if (outcome != PlanStore.PublishOutcome.PUBLISHED) {
            throw new IllegalStateException("the demo could not publish plan epoch " + epoch + ": " + outcome
                    + " (is another plan leader publishing in this job?)");
        }
        // withPlan keeps each member's observer and sequence.
        members.replaceAll(member -> member.withPlan(plan.collectivePlan(member.communicator().members(), planner)));
        return plan;
    }

    /** The median of {@value #TIMED} bcasts from rank 0 (after an untimed one), in ms, recorded for the dashboard. */
    private double timeBcast() {
        double[] millis = new double[TIMED];
        Buffer message = Buffer.buffer(new byte[BYTES]);
        for (int i = -1; i < TIMED; i++) {
            // As the tree race times: every receiver waiting first, then the clock from the root's call.
            List<Future<Buffer>> calls = new ArrayList<>();
            for (Collectives member : members.subList(1, members.size())) {
                calls.add(member.bcast(null, 0));
            }
            long start = System.nanoTime();
            calls.add(members.get(0).bcast(message, 0));
            await.apply(Future.all(calls));
            if (i >= 0) {
                millis[i] = (System.nanoTime() - start) / 1e6;
            }
        }
        Arrays.sort(millis);
        return millis[TIMED / 2];
    }

    private LatencySnapshot snapshot(double[][] rtt) {
        List<Member> ranked = worlds.get(0).members();
        int n = ranked.size();
        double[] oneWay = new double[n * n];
        for (int from = 0; from < n; from++) {
            for (int to = 0; to < n; to++) {
                oneWay[from * n + to] = from == to ? 0 : rtt[from][to] / 2;
            }
        }
        return new LatencySnapshot(ranked.stream().map(TopologyPlan::nameOf).toList(), oneWay);
    }

    /** The round trips between the representatives' sites, every pair at once. */
    private double[][] measureSites(List<Integer> representatives, int pings) {
        return (double[][]) await.apply(PingMatrix.measureBetween(worlds, representatives, pings));
    }

    /** {@code measured} with every pair of ranks at different sites replaced by their sites' new round trip. */
    private double[][] withSites(double[][] measured, List<Integer> representatives, double[][] sites) {
        Communicator world = worlds.get(0);
        Map<String, Integer> siteIndex = new LinkedHashMap<>();
        for (int i = 0; i < representatives.size(); i++) {
            siteIndex.put(world.member(representatives.get(i)).coordinates().site(), i);
        }
        double[][] rtt = new double[measured.length][];
        for (int from = 0; from < measured.length; from++) {
            rtt[from] = measured[from].clone();
            int a = siteIndex.get(world.member(from).coordinates().site());
            for (int to = 0; to < measured.length; to++) {
                int b = siteIndex.get(world.member(to).coordinates().site());
                if (a != b) {
                    rtt[from][to] = sites[a][b];
                }
            }
        }
        return rtt;
    }

    private static String moves(List<LatencySnapshot.Move> moves) {
        String shown = moves.subList(0, Math.min(MOVES_SHOWN, moves.size())).toString();
        return moves.size() > MOVES_SHOWN ? shown + " and " + (moves.size() - MOVES_SHOWN) + " more" : shown;
    }

    private static List<Integer> firstRankOfEachSite(Communicator world) {
        Map<String, Integer> first = new LinkedHashMap<>();
        for (int rank = 0; rank < world.size(); rank++) {
            first.putIfAbsent(world.member(rank).coordinates().site(), rank);
        }
        return List.copyOf(first.values());
    }

    /** E.g. {@code 0 yonsei-a -> 8 ajou-a, 8 ajou-a -> 16 kut-a}: the tree's edges between sites. */
    private static String wideAreaEdges(RootedTree tree, Communicator world) {
        List<String> edges = new ArrayList<>();
        for (int rank = 0; rank < world.size(); rank++) {
            for (int child : tree.children(rank)) {
                String from = world.member(rank).coordinates().site();
                String to = world.member(child).coordinates().site();
                if (!from.equals(to)) {
                    edges.add(rank + " " + from + " -> " + child + " " + to);
                }
            }
        }
        return edges.isEmpty() ? "none" : String.join(", ", edges);
    }
}
