package dev.canopy.collectives.run;

import dev.canopy.collectives.internal.leader.ForecastFeed;
import dev.canopy.collectives.internal.leader.ForecastLatencies;
import dev.canopy.collectives.internal.leader.PlanCache;
import dev.canopy.collectives.internal.leader.PlanEvaluator;
import dev.canopy.collectives.internal.leader.PlanLeader;
import dev.canopy.collectives.internal.leader.PlanStore;
import dev.canopy.collectives.internal.leader.PlanSwitch;
import dev.canopy.collectives.internal.leader.SiteCompletedFeed;
import dev.canopy.collectives.internal.leader.SizedPlanners;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.GridLatencies;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.membership.MembershipView;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.Member;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.probes.internal.measure.ProbeService;
import dev.canopy.probes.internal.measure.SiteForecastWatcher;
import dev.canopy.probes.internal.measure.SiteSummaryPublisher;
import dev.canopy.topology.internal.hierarchy.Hierarchy;
import dev.canopy.topology.internal.hierarchy.LevelAlgorithms;
import dev.canopy.topology.internal.tree.LogGpParameters;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One session's part in live planning: a probe service on the node's measurement transport (following the
 * job's membership) and, for a site representative, the publication of its site pairs' forecasts; a plan leader
 * candidate fed by the node's own forecasts completed with every published site pair ({@link SiteCompletedFeed});
 * and the plan cache its {@link PlanSwitch} reads. All of them live on the node's context and its ZooKeeper client.
 */
public final class LivePlans {

    /** Epochs kept per node; a collective that still carries an older one fetches it again. */
    private static final int CACHED_EPOCHS = 8;

    private final ProbeService probes;
    private final SiteSummaryPublisher summaries;
    private final SiteForecastWatcher sites;
    private final PlanCache cache;
    private final PlanLeader leader;
    private final PlanSwitch planSwitch;

    private LivePlans(ProbeService probes, SiteSummaryPublisher summaries, SiteForecastWatcher sites, PlanCache cache,
            PlanLeader leader, PlanSwitch planSwitch) {
        this.probes = probes;
        this.summaries = summaries;
        this.sites = sites;
        this.cache = cache;
        this.leader = leader;
        this.planSwitch = planSwitch;
    }

    /**
     * Starts probing, the site summaries, the plan cache's watch and the leader election for a joined {@code node}.
     *
     * @param secret the job's secret, which seals the plan znodes
     * @param algorithms the level file's tree methods, as the session's configured plan uses them
     * @param loggp the deployment's calibrated LogGP parameters, as the session's configured plan uses them
     */
    public static Future<LivePlans> start(Vertx vertx, CanopyNode node, Communicator world, GridModel grid,
            JobSecret secret, LevelAlgorithms algorithms, LogGpParameters loggp, LivePlanSettings settings) {
        MembershipView view = node.view().orElseThrow(() -> new IllegalStateException(
                node.id() + " has no rank table; start live plans after joining"));
        Member self = world.member(world.rank());
        NanoClock clock = NanoClock.SYSTEM;
        ProbeService probes = new ProbeService(vertx, node.measurementTransport(), node.job(), self, settings.probes(),
                clock);
        node.onMembershipEvent(event -> node.view().ifPresent(probes::updateMembership));

        Map<String, Coordinates> coordinates = ConfiguredPlans.coordinatesOf(world.members());
        SizedPlanners planners = (messageBytes, bandwidths) -> ConfiguredPlans.planner(grid, coordinates, algorithms,
                messageBytes, loggp, bandwidths);
        PlanStore store = new PlanStore(node.context(), node.zooKeeper(), node.job(), secret);
        PlanCache cache = new PlanCache(node.context(), node.zooKeeper(), node.job(), store, CACHED_EPOCHS);
        SiteSummaryPublisher summaries = new SiteSummaryPublisher(vertx, probes, node.zooKeeper(), node.job(),
                settings.summaryInterval(), settings.probes().forecast().ranking());
        SiteForecastWatcher sites = new SiteForecastWatcher(node.context(), node.zooKeeper(), node.job());
        ForecastFeed forecasts = new SiteCompletedFeed(ForecastFeed.of(probes), sites, node.context(), world.members());
        PlanLeader leader = new PlanLeader(node.context(), node.zooKeeper(), node.job(), secret, self, forecasts,
                new ForecastLatencies(new GridLatencies(grid, coordinates, loggp)),
                PlanEvaluator.everyRoot(Hierarchy.of(coordinates), planners, PlanEvaluator.DEFAULT_MESSAGE_SIZES),
                settings.leader(), clock);
        LivePlans live = new LivePlans(probes, summaries, sites, cache, leader, new PlanSwitch(cache, planners));
        cache.start();
        sites.start();
        return probes.start(view)
                .onSuccess(v -> summaries.start())
                .compose(v -> leader.start())
                .map(live)
                .recover(e -> live.close().transform(closed -> Future.failedFuture(e)));
    }

    public PlanSwitch planSwitch() {
        return planSwitch;
    }

    /** Leaves the election, stops the watches, publishing and probing; the node's transport and ZooKeeper client stay open. */
    public Future<Void> close() {
        return leader.close()
                .eventually(() -> {
                    cache.close();
                    sites.close();
                    summaries.stop();
                    return probes.stop();
                });
    }
}
