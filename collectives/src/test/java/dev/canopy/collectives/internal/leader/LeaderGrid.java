package dev.canopy.collectives.internal.leader;

import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.testing.Await;
import dev.canopy.core.testing.ManualClock;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.probes.internal.Link;
import dev.canopy.topology.internal.graph.LatencySource;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Three members a, b, c, each its own WAN region, so the heavy-WAN tree (HLOT) decides everything. The
 * level file would configure RTTs a~b 20, b~c 20, a~c 30 ms: from a, the direct link to c (15 ms one way)
 * beats the relay through b (20 ms). When a~c slows to 100 ms the relay wins. Plans are judged with a as root.
 */
final class LeaderGrid implements AutoCloseable {

    static final List<String> NAMES = List.of("a", "b", "c");
    static final Link AB = Link.between(NodeId.of("a"), NodeId.of("b"));
    static final Link BC = Link.between(NodeId.of("b"), NodeId.of("c"));
    static final Link AC = Link.between(NodeId.of("a"), NodeId.of("c"));
    static final HierarchicalPlanner PLANNER = new HierarchicalPlanner(LevelAlgorithms.mpichGx(), ConfiguredPlans.COST);

    final Vertx vertx;
    final ManualClock clock = new ManualClock();
    final List<Member> members = new ArrayList<>();
    final List<LeaderNode> nodes = new ArrayList<>();

    /** Leaders whose cool-down runs on the system clock. */
    LeaderGrid(String connectString, JobId job, LeaderSettings settings) {
        this(connectString, job, settings, NanoClock.SYSTEM);
    }

    /** Leaders whose cool-down runs on {@code leaderClock}. */
    LeaderGrid(String connectString, JobId job, LeaderSettings settings, NanoClock leaderClock) {
        // Default options: Vert.x's 2 s blocked-thread report applies.
        this.vertx = Vertx.vertx();
        Map<String, Coordinates> coordinates = new LinkedHashMap<>();
        for (int i = 0; i < NAMES.size(); i++) {
            String name = NAMES.get(i);
            coordinates.put(name, Coordinates.ofHost(name));
            members.add(new Member(NodeId.of(name), Coordinates.ofHost(name), new NodeAddress("127.0.0.1", 7000 + i, 7000 + i)));
        }
        PlanEvaluator evaluator = new PlanEvaluator(Hierarchy.of(coordinates), PLANNER, List.of("a"));
        ForecastLatencies latencies = new ForecastLatencies(LeaderGrid::configuredOneWayMs);
        for (Member member : members) {
            nodes.add(new LeaderNode(vertx, connectString, job, member, clock, leaderClock, evaluator, latencies,
                    settings));
        }
    }

    /** The level file's prior: half the configured RTT. */
    static double configuredOneWayMs(String from, String to) {
        String pair = from.compareTo(to) < 0 ? from + to : to + from;
        return switch (pair) {
            case "ab", "bc" -> 10;
            case "ac" -> 15;
            default -> LatencySource.UNMEASURED;
        };
    }

    void start() {
        nodes.forEach(LeaderNode::start);
    }

    /** Every node probes the link and sees the same samples (each node's forecasts are its own). */
    void record(Link link, double rttMs, int samples) {
        Await.result(Future.all(nodes.stream().map(node -> node.record(link, rttMs, samples)).toList()));
    }

    LeaderNode awaitLeader() {
        Await.until(() -> nodes.stream().filter(LeaderNode::leads).count() == 1, () -> "exactly one plan leader among "
                + nodes.stream().map(node -> node.member.id() + "=" + node.leader.role()).toList());
        return nodes.stream().filter(LeaderNode::leads).findFirst().orElseThrow();
    }

    long currentEpoch() {
        return Await.result(nodes.get(0).store.currentEpoch());
    }

    void awaitEpoch(long epoch) {
        Await.until(() -> currentEpoch() >= epoch, () -> "plan epoch " + epoch + " published; current is " + currentEpoch());
    }

    PublishedPlan plan(long epoch) {
        return Await.result(nodes.get(0).store.read(epoch));
    }

    @Override
    public void close() {
        for (LeaderNode node : nodes) {
            node.close();
        }
        Await.result(vertx.close());
    }
}
