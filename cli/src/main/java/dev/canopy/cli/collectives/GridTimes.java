package dev.canopy.cli.collectives;

import dev.canopy.collectives.internal.engine.ExchangeFlow;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.GridBandwidths;
import dev.canopy.collectives.plan.GridLatencies;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.comm.MessageLimits;
import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import dev.canopy.topology.internal.tree.CostModel;
import dev.canopy.topology.internal.tree.LogGpParameters;
import dev.canopy.topology.internal.tree.Prediction;
import dev.canopy.topology.internal.tree.SegmentPolicy;
import dev.canopy.topology.internal.tree.ShortestPaths;
import java.util.List;
import java.util.Map;

/**
 * The model times the benchmark prints beside its measurements, from the level file's links:
 * <ul>
 * <li>predicted: the topology's cost model replaying the tree the plan runs as the runtime and the
 *     WAN emulation carry it: the LogGP parameters given (measured on the grid, or the defaults' 20 µs
 *     per send), segments pipelined as the variant pipelines them, every
 *     message to another site queued for its sender's site uplink (shared by all the site's sends)
 *     and for the site link, then the one-way latency, every edge held to the runtime's default flow
 *     control (credit window, rendezvous, chunks: {@link ExchangeFlow}), and, when asked for, all
 *     members' sends and receives sharing this machine's cores (they are nodes of this JVM);</li>
 * <li>lower bound: every member is at least its shortest-path latency from the root away, plus, in
 *     another site, the transfer time over the fastest link into that site.</li>
 * </ul>
 */
public final class GridTimes {

    private final GridModel grid;
    private final List<Member> members;
    private final Map<String, Coordinates> coordinates;
    private final GridLatencies latencies;
    private final LogGpParameters loggp;
    private final int sharedCores;

    public GridTimes(GridModel grid, List<Member> members) {
        this(grid, members, LogGpParameters.DEFAULTS, 0);
    }

    /**
     * @param loggp the parameters the plans were made with: sends cost and latencies inside sites
     * @param sharedCores the cores all members share ({@link CostModel#sharedCores()}); 0: each its own CPU
     */
    public GridTimes(GridModel grid, List<Member> members, LogGpParameters loggp, int sharedCores) {
        this.grid = grid;
        this.sharedCores = sharedCores;
        this.members = members;
        this.coordinates = ConfiguredPlans.coordinatesOf(members);
        this.latencies = new GridLatencies(grid, coordinates, loggp);
        this.loggp = loggp;
    }

    /**
     * The completion the topology's cost model predicts for {@code plan}'s tree from {@code root}
     * carrying {@code bytes} cut by {@code pipeline}, with the file's uplinks and link bandwidths.
     */
    public double predictedMs(TopologyPlan plan, int root, SegmentPolicy pipeline, int bytes) {
        CostModel cost = loggp.costModel(bytes)
                .withBandwidths(new GridBandwidths(grid, coordinates))
                .withSegments(pipeline)
                .withFlow(ExchangeFlow.of(MessageLimits.defaults(), members.size()))
                .withSharedCores(sharedCores);
        return Prediction.completionMs(plan.hierarchicalPlan(root).replay(latencies, cost).values().stream()
                .mapToDouble(Double::doubleValue).toArray());
    }

    public double lowerBoundMs(int root, int bytes) {
        List<String> names = members.stream().map(TopologyPlan::nameOf).toList();
        ShortestPaths paths = ShortestPaths.from(LatencyMatrix.of(names, latencies), root);
        double bound = 0;
        for (int rank = 0; rank < members.size(); rank++) {
            bound = Math.max(bound, paths.distanceMs()[rank] + fastestTransferIntoMs(rank, root, bytes));
        }
        return bound;
    }

    private double latency(int from, int to) {
        return latencies.oneWayMs(TopologyPlan.nameOf(members.get(from)), TopologyPlan.nameOf(members.get(to)));
    }

    private double transferMs(int from, int to, int bytes) {
        String fromSite = members.get(from).coordinates().site();
        String toSite = members.get(to).coordinates().site();
        return fromSite.equals(toSite) ? 0 : bytes * 8.0 / (bandwidthMbps(fromSite, toSite) * 1000);
    }

    private double fastestTransferIntoMs(int rank, int root, int bytes) {
        String site = members.get(rank).coordinates().site();
        String rootSite = members.get(root).coordinates().site();
        double best = Double.POSITIVE_INFINITY;
        boolean remote = false;
        for (Member other : members) {
            String from = other.coordinates().site();
            if (!from.equals(site)) {
                remote = true;
                best = Math.min(best, bytes * 8.0 / (bandwidthMbps(from, site) * 1000));
            }
        }
        return remote && !site.equals(rootSite) ? best : 0;
    }

    private double bandwidthMbps(String fromSite, String toSite) {
        double link = grid.linkBetween(fromSite, toSite).bandwidthMbps().orElse(Double.POSITIVE_INFINITY);
        double uplink = grid.site(fromSite).orElseThrow().uplinkMbps().orElse(Double.POSITIVE_INFINITY);
        return Math.min(link, uplink);
    }
}
