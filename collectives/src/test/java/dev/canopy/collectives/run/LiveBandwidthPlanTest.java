package dev.canopy.collectives.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.CollectiveObserver;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.internal.leader.LeaderSettings;
import dev.canopy.collectives.internal.leader.PublishedPlan;
import dev.canopy.collectives.internal.leader.SizedPlanners;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.core.internal.emulation.GridWanEmulation;
import dev.canopy.core.internal.emulation.LinkProfile;
import dev.canopy.core.internal.emulation.WanEmulation;
import dev.canopy.core.internal.emulation.WanEmulator;
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
import dev.canopy.topology.internal.replan.ReplanPolicy;
import dev.canopy.topology.internal.tree.LogGpParameters;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * Live plans weigh measured bandwidth, end to end: three real nodes (one per site, sockets on 127.0.0.1, a real
 * ZooKeeper) on the emulated WAN, every WAN link at 100 Mbit/s, the direct a~c link (30 ms RTT) much shorter than
 * the relay through b (2 x 80 ms). The probes time bandwidth transfers between the representatives; the leader
 * judges plans at 0 B, 64 KiB, 1 MiB and 16 MiB. When the emulator throttles a~c to 4 Mbit/s at run time, the leader
 * publishes a new epoch whose bandwidth forecasts saw it: its 1 MiB trees relay through b, while its latency trees
 * still send a to c directly. After one switch point to the newest epoch, a 2-byte and a 1 MiB bcast issued back to
 * back, with no call between, go over the latency tree and the relayed tree: the engine picks by size.
 */
class LiveBandwidthPlanTest {

    private static final String LEVEL_FILE = """
            +
            ( &(type = grid) (name = "live-bandwidth") (default_rtt_ms = 100) (levels = (heavy_wan auto)) )
            ( &(type = subjob) (label = "a") (count = 1) (wan_group = "a") (site = "a") (uplink_mbps = 10000) )
            ( &(type = subjob) (label = "b") (count = 1) (wan_group = "b") (site = "b") (uplink_mbps = 10000) )
            ( &(type = subjob) (label = "c") (count = 1) (wan_group = "c") (site = "c") (uplink_mbps = 10000) )
            ( &(type = link) (between = "a" "b") (rtt_ms = 80) )
            ( &(type = link) (between = "b" "c") (rtt_ms = 80) )
            ( &(type = link) (between = "a" "c") (rtt_ms = 30) )
            """;
    private static final JobId JOB = JobId.of("live-bandwidth");
    private static final long LARGE = 1L << 20;
    /** Round trips every 200 ms, a 64 KiB bandwidth transfer per representative link every 400 ms. */
    private static final LivePlanSettings FAST = new LivePlanSettings(
            ProbeSettings.around(ScheduleSettings.DEFAULTS.withLatencyPeriod(Duration.ofMillis(200))
                            .withBandwidthPeriod(Duration.ofMillis(400)), ForecastSettings.DEFAULTS)
                    .withProbeTimeout(Duration.ofMillis(800)),
            Duration.ofMillis(200),
            new LeaderSettings(ReplanPolicy.DEFAULT, Duration.ofMillis(300)));

    private final JobSecret secret = JobSecret.generate();

    @Test
    void aThrottledLinkMovesLargeMessageTreesOffItWhileSmallMessageTreesKeepIt() throws Exception {
        GridModel grid = GridConfigs.parse(LEVEL_FILE, "live-bandwidth.rsl").orElseThrow();
        WanEmulation wan = GridWanEmulation.of(grid)
                .withLink("a", "b", LinkProfile.rtt(80).withBandwidthMbps(100))
                .withLink("b", "c", LinkProfile.rtt(80).withBandwidthMbps(100))
                .withLink("a", "c", LinkProfile.rtt(30).withBandwidthMbps(100));
        try (WanEmulator emulator = WanEmulator.start(wan); TestingServer zooKeeper = new TestingServer(true);
                PlanReader plans = new PlanReader(zooKeeper.getConnectString(), JOB, secret)) {
            List<CanopySession> sessions = join(grid, emulator, zooKeeper.getConnectString());
            try {
                List<Member> members = sessions.get(0).world().members();
                SizedPlanners planners = (bytes, bandwidths) -> ConfiguredPlans.planner(grid,
                        ConfiguredPlans.coordinatesOf(members), LevelChoices.of(grid.levels()), bytes,
                        LogGpParameters.DEFAULTS, bandwidths);

                Await.until(() -> plans.current().isPresent(), () -> "the leader's first plan");
                PublishedPlan first = plans.current().orElseThrow();
                assertThat(treeSends(first, members, planners, LARGE))
                        .as("epoch %d (%s): before the throttle the short a~c link carries 1 MiB (b joins from a or c,"
                                + " as the early latency forecasts have it)", first.epoch(), first.bandwidths())
                        .contains("a->c");

                emulator.changeLink("a", "c", LinkProfile.rtt(30).withBandwidthMbps(4));
                Await.until(Duration.ofSeconds(60), () -> plans.current().filter(plan -> measuredThinAc(plan)
                                && treeSends(plan, members, planners, LARGE).containsAll(List.of("a->b", "b->c"))).isPresent(),
                        () -> "a plan whose forecasts saw a~c throttled to 4 Mbit/s and whose 1 MiB tree relays through b");
                PublishedPlan thin = plans.current().orElseThrow();

                assertThat(thin.epoch()).isGreaterThan(first.epoch());
                assertThat(thin.reason()).as("the published reason").contains("re-plan", "bandwidths moved since epoch");
                assertThat(treeSends(thin, members, planners, 0))
                        .as("epoch %d: small messages still take the short a~c link (b joins from a or c: a~b and b~c"
                                + " have the same RTT, the forecasts' noise decides)", thin.epoch())
                        .contains("a->c");

                // One switch point to the newest epoch; then a small and a large bcast back to back, with no call between:
                // each runs on its size class's trees, which every member learns from the root's frames.
                List<Collectives> adopted = adoptEverywhere(sessions);
                assertThat(adopted).extracting(c -> c.plan().epoch()).containsOnly(adopted.get(0).plan().epoch());
                assertThat(adopted.get(0).plan().epoch()).isGreaterThanOrEqualTo(thin.epoch());
                List<SortedMap<Long, CollectivePlan>> ranOn = new ArrayList<>();
                byte[] small = {4, 2};
                byte[] data = new byte[(int) LARGE];
                new SplittableRandom(7).nextBytes(data);
                List<Future<Buffer>> smallBcasts = new ArrayList<>();
                List<Future<Buffer>> largeBcasts = new ArrayList<>();
                for (Collectives member : adopted) {
                    SortedMap<Long, CollectivePlan> bySequence = new ConcurrentSkipListMap<>();
                    ranOn.add(bySequence);
                    Collectives observed = member.withObserver(recordingPlans(bySequence));
                    smallBcasts.add(observed.bcast(member.rank() == 0 ? Buffer.buffer(small) : null, 0));
                    largeBcasts.add(observed.bcast(member.rank() == 0 ? Buffer.buffer(data) : null, 0));
                }
                assertThat(smallBcasts).allSatisfy(bcast -> assertThat(Await.result(bcast).getBytes()).isEqualTo(small));
                assertThat(largeBcasts).allSatisfy(bcast -> assertThat(Await.result(bcast).getBytes()).isEqualTo(data));
                assertThat(ranOn).allSatisfy(ran -> {
                    assertThat(ran).hasSize(2);
                    assertThat(sends(ran.get(ran.firstKey()).tree(0), members)).as("the 2-byte bcast's tree from a")
                            .contains("a->c");
                    assertThat(sends(ran.get(ran.lastKey()).tree(0), members)).as("the 1 MiB bcast's tree from a")
                            .containsExactlyInAnyOrder("a->b", "b->c");
                });
            } finally {
                sessions.forEach(CanopySession::leave);
            }
        }
    }

    private List<CanopySession> join(GridModel grid, WanEmulator emulator, String connectString) {
        List<Future<CanopySession>> joining = new ArrayList<>();
        for (int process = 0; process < grid.processCount(); process++) {
            JoinOptions options = new JoinOptions(JOB, process, grid, connectString, TransportStack.none(), secret)
                    .withLivePlans(FAST);
            joining.add(Canopy.joinAsync(Vertx.vertx(), options.withLayers(
                    GridEmulation.layers(emulator, options.placement().coordinates(), process))));
        }
        List<CanopySession> sessions = new ArrayList<>();
        for (Future<CanopySession> session : joining) {
            sessions.add(Await.result(session));
        }
        sessions.sort((x, y) -> Integer.compare(x.rank(), y.rank()));
        return sessions;
    }

    /** Every member's switch point; they all leave it on one epoch. */
    private static List<Collectives> adoptEverywhere(List<CanopySession> sessions) {
        List<Future<Collectives>> switching = sessions.stream().map(CanopySession::adoptNewestPlanAsync).toList();
        return switching.stream().map(Await::result).toList();
    }

    /** Puts the size class plan every succeeded collective ran on by its sequence number. */
    private static CollectiveObserver recordingPlans(SortedMap<Long, CollectivePlan> plans) {
        return (operation, root, bytes) -> new CollectiveObserver.Observation() {
            private long sequence;

            @Override
            public void sequenced(int contextId, long sequenceNumber, long epoch) {
                sequence = sequenceNumber;
            }

            @Override
            public void ranOn(CollectivePlan classPlan) {
                plans.put(sequence, classPlan);
            }

            @Override
            public void completed(Throwable failure) {
            }
        };
    }

    /**
     * Whether the plan's forecasts saw a~c thin. Early forecasts of the fast links are noisy (a few 64 KiB samples on
     * a loaded host: 6 to 150 Mbit/s for a 100 Mbit/s link), and an epoch whose trees a later, settled forecast does not
     * change stays (the hysteresis), so the test waits for the trees, not for particular values of the relay links.
     */
    private static boolean measuredThinAc(PublishedPlan plan) {
        return plan.bandwidths().mbps("a", "c").orElse(Double.POSITIVE_INFINITY) < 20;
    }

    /** The site pairs the tree rooted at rank 0 (a) of {@code plan} sends over, for messages of {@code bytes}. */
    private static List<String> treeSends(PublishedPlan plan, List<Member> members, SizedPlanners planners, long bytes) {
        return sends(plan.collectivePlan(members, planners, bytes).tree(0), members);
    }

    private static List<String> sends(RootedTree tree, List<Member> members) {
        List<String> sends = new ArrayList<>();
        for (int rank = 0; rank < members.size(); rank++) {
            for (int child : tree.children(rank)) {
                sends.add(members.get(rank).coordinates().site() + "->" + members.get(child).coordinates().site());
            }
        }
        return sends;
    }
}
