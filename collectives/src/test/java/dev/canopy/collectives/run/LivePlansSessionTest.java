package dev.canopy.collectives.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.internal.leader.LatencySnapshot;
import dev.canopy.collectives.internal.leader.LeaderSettings;
import dev.canopy.collectives.internal.leader.PublishedPlan;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.probes.internal.forecast.ForecastSettings;
import dev.canopy.probes.internal.measure.ProbeSettings;
import dev.canopy.probes.internal.schedule.ScheduleSettings;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;
import dev.canopy.topology.internal.replan.ReplanPolicy;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * Sessions joined with live plans, end to end: three real nodes (one per site, sockets on 127.0.0.1, a real
 * ZooKeeper) probe each other through an emulated WAN; their plan leader publishes epoch 1; the a~c link
 * slows from 30 to 100 ms RTT, the probes measure it, the leader publishes a new epoch (2 unless noise made it
 * re-plan in between), and at the switch point every member adopts it and broadcasts along its trees, with
 * frames carrying its epoch: relayed through b instead of the slow direct link.
 */
class LivePlansSessionTest {

    private static final String LEVEL_FILE = """
            +
            ( &(type = grid) (name = "live-three") (default_rtt_ms = 100) (levels = (heavy_wan hlot)) )
            ( &(type = subjob) (label = "a") (count = 1) (wan_group = "a") (site = "a") )
            ( &(type = subjob) (label = "b") (count = 1) (wan_group = "b") (site = "b") )
            ( &(type = subjob) (label = "c") (count = 1) (wan_group = "c") (site = "c") )
            ( &(type = link) (between = "a" "b") (rtt_ms = 20) )
            ( &(type = link) (between = "b" "c") (rtt_ms = 20) )
            ( &(type = link) (between = "a" "c") (rtt_ms = 30) )
            """;
    private static final JobId JOB = JobId.of("live-plans");
    /** Probes every 200 ms; a slowed link's probe (100 ms RTT) must not time out. */
    private static final LivePlanSettings FAST = new LivePlanSettings(
            ProbeSettings.around(ScheduleSettings.DEFAULTS.withLatencyPeriod(Duration.ofMillis(200)), ForecastSettings.DEFAULTS)
                    .withProbeTimeout(Duration.ofMillis(500)),
            Duration.ofMillis(200),
            new LeaderSettings(ReplanPolicy.DEFAULT, Duration.ofMillis(300)));

    private final SiteLinkDelays wan = new SiteLinkDelays();
    private final JobSecret secret = JobSecret.generate();
    /** The level file's plan, which sessions follow before their first switch point. */
    private long configuredEpoch;

    @Test
    void everyMemberAdoptsTheLeadersNewPlanAtTheSwitchPointAndBroadcastsAlongIt() throws Exception {
        GridModel grid = GridConfigs.parse(LEVEL_FILE, "live-three.rsl").orElseThrow();
        wan.set("a", "b", 10);
        wan.set("b", "c", 10);
        wan.set("a", "c", 15);
        try (TestingServer zooKeeper = new TestingServer(true); PlanReader plans = new PlanReader(zooKeeper.getConnectString(), JOB, secret)) {
            List<CanopySession> sessions = join(grid, zooKeeper.getConnectString());
            try {
                assertThat(sessions).extracting(CanopySession::rank).containsExactly(0, 1, 2);
                HierarchicalPlanner planner = new HierarchicalPlanner(LevelChoices.of(grid.levels()), ConfiguredPlans.COST);
                List<Member> members = sessions.get(0).world().members();
                configuredEpoch = sessions.get(0).collectives().plan().epoch();

                long first = adoptUntil(sessions, plans, plan -> true, "the leader's first plan");
                broadcastOnEpoch(sessions, first);
                assertThat(broadcastSends()).as("epoch %d: the broadcast follows the epoch's tree from a", first)
                        .containsExactlyInAnyOrderElementsOf(treeSends(plans.read(first), members, planner));

                wan.set("a", "c", 50);
                // Noise may make the leader re-plan in between; the plan that matters is one whose snapshot makes the
                // relay a-b-c faster than the slowed direct a~c link.
                long slowed = adoptUntil(sessions, plans, plan -> plan.epoch() > first && relayBeatsDirect(plan),
                        "a plan that measured the slow a~c link");
                assertThat(plans.read(slowed).reason()).as("the published reason of a re-plan").contains("re-plan");
                broadcastOnEpoch(sessions, slowed);
                assertThat(broadcastSends()).as("epoch %d: the slowed a~c link is avoided, b relays to c", slowed)
                        .containsExactlyInAnyOrder("a->b", "b->c")
                        .containsExactlyInAnyOrderElementsOf(treeSends(plans.read(slowed), members, planner));
            } finally {
                sessions.forEach(CanopySession::leave);
            }
        }
    }

    private List<CanopySession> join(GridModel grid, String connectString) {
        List<Future<CanopySession>> joining = new ArrayList<>();
        for (int process = 0; process < grid.processCount(); process++) {
            JoinOptions options = new JoinOptions(JOB, process, grid, connectString, TransportStack.none(), secret)
                    .withLivePlans(FAST);
            joining.add(Canopy.joinAsync(Vertx.vertx(),
                    options.withLayers(wan.layerAt(options.placement().coordinates().site()))));
        }
        List<CanopySession> sessions = new ArrayList<>();
        for (Future<CanopySession> session : joining) {
            sessions.add(Await.result(session));
        }
        sessions.sort((x, y) -> Integer.compare(x.rank(), y.rank()));
        return sessions;
    }

    /**
     * Waits until the published epoch's plan is {@code wanted}, then calls the switch point on every member, as an
     * application would between iterations, until they agree on a wanted epoch (their caches hear of a new epoch
     * a moment after it is published). Every switch point must give all members the same epoch.
     */
    private long adoptUntil(List<CanopySession> sessions, PlanReader plans, Predicate<PublishedPlan> wanted,
            String what) {
        long end = System.nanoTime() + Await.DEFAULT.toNanos();
        List<Long> agreed = List.of();
        while (System.nanoTime() < end) {
            Await.until(() -> plans.current().filter(wanted).isPresent(), () -> "published: " + what);
            List<Future<Collectives>> switching = sessions.stream().map(CanopySession::adoptNewestPlanAsync).toList();
            agreed = switching.stream().map(Await::result).map(c -> c.plan().epoch()).toList();
            assertThat(agreed).as("every member leaves the switch point on the same epoch").containsOnly(agreed.get(0));
            long epoch = agreed.get(0);
            if (epoch != configuredEpoch && wanted.test(plans.read(epoch))) {
                return epoch;
            }
        }
        throw new AssertionError("members did not adopt " + what + " within " + Await.DEFAULT.toSeconds()
                + " s; the last switch point agreed on " + agreed);
    }

    /** Root a broadcasts; every member gets the data, and every frame of it carries {@code epoch}. */
    private void broadcastOnEpoch(List<CanopySession> sessions, long epoch) {
        wan.forgetSent();
        String text = "bcast on epoch " + epoch;
        List<Future<Buffer>> received = sessions.stream()
                .map(s -> s.collectives().bcast(s.rank() == 0 ? Buffer.buffer(text) : null, 0)).toList();
        assertThat(received).allSatisfy(bcast -> assertThat(Await.result(bcast).toString()).isEqualTo(text));
        assertThat(wan.sentCollectives()).filteredOn(sent -> sent.header().operation() == Operation.BCAST)
                .isNotEmpty()
                .allSatisfy(sent -> assertThat(sent.header().plan()).as("plan id in the collective header").isEqualTo(epoch));
    }

    /** The site pairs the tree rooted at rank 0 (a) of {@code plan} sends over. */
    private static List<String> treeSends(PublishedPlan plan, List<Member> members, HierarchicalPlanner planner) {
        RootedTree tree = plan.collectivePlan(members, planner).tree(0);
        List<String> sends = new ArrayList<>();
        for (int rank = 0; rank < members.size(); rank++) {
            for (int child : tree.children(rank)) {
                sends.add(members.get(rank).coordinates().site() + "->" + members.get(child).coordinates().site());
            }
        }
        return sends;
    }

    private static boolean relayBeatsDirect(PublishedPlan plan) {
        LatencySnapshot measured = plan.latencies();
        return measured.oneWayMs("p0", "p2") > measured.oneWayMs("p0", "p1") + measured.oneWayMs("p1", "p2");
    }

    /** The site pairs the last broadcast's frames crossed, e.g. {@code a->c}. */
    private List<String> broadcastSends() {
        return wan.sentCollectives().stream().filter(sent -> sent.header().operation() == Operation.BCAST)
                .map(sent -> sent.fromSite() + "->" + sent.toSite()).distinct().toList();
    }
}
