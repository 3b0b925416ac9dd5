package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.cli.collectives.WanEdges.Edge;
import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.Message;
import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The warm-up over real sockets between the nodes of an emulated WAN: which connections, how much, and its failures. */
@Timeout(180)
class WanWarmUpTest {

    /**
     * Ranks 0 and 1 at a, 2 at b, 3 at c, 4 at d. The shortest-path trees from every site's coordinator (0, 2, 3,
     * 4) use only a-b, b-c (c is closer through b than directly) and a-d (d is closer to b through a).
     */
    private static final String FOUR_SITES = """
            +
            ( &(type = grid) (name = "warm") (levels = (heavy_wan spt) (lan flat) (cluster binomial)) )
            ( &(type = subjob) (label = "a") (count = 2) )
            ( &(type = subjob) (label = "b") (count = 1) )
            ( &(type = subjob) (label = "c") (count = 1) )
            ( &(type = subjob) (label = "d") (count = 1) )
            ( &(type = link) (between = "a" "b") (rtt_ms = 10) )
            ( &(type = link) (between = "a" "c") (rtt_ms = 100) )
            ( &(type = link) (between = "b" "c") (rtt_ms = 20) )
            ( &(type = link) (between = "a" "d") (rtt_ms = 30) )
            ( &(type = link) (between = "b" "d") (rtt_ms = 200) )
            ( &(type = link) (between = "c" "d") (rtt_ms = 200) )
            """;
    private static final Set<Edge> TREE_WAN_EDGES = Set.of(new Edge(0, 2), new Edge(2, 0), new Edge(2, 3),
            new Edge(3, 2), new Edge(0, 4), new Edge(4, 0));
    private static final long NO_DEADLINE_IN_THIS_TEST_MS = 120_000;

    @Test
    void eachDirectionOfTheTreesWanEdgesCarriesOneFlightAndNothingElseDoes() {
        GridModel model = GridConfigs.parse(FOUR_SITES, "warm.rsl").orElseThrow();
        try (EmulatedGrid grid = EmulatedGrid.start(model, "cli-warm-wan", 5)) {
            List<Communicator> world = grid.world();
            CollectivePlan plan = ConfiguredPlans.of(world.get(0).members(), model);
            // a program message already on its way must reach the program, not the warm-up (same tag, WORLD's context)
            Future<Void> early = world.get(0).send(3, 0, Buffer.buffer("program"));
            WarmUpSizes sizes = new WarmUpSizes(model, WarmWanSetting.fixed(65536));
            List<WanWarmUp.Result> results = awaitAll(world.stream()
                    .map(c -> WanWarmUp.start(c, plan, sizes, NO_DEADLINE_IN_THIS_TEST_MS)).toList());

            Set<Edge> sent = new TreeSet<>();
            Set<Edge> received = new TreeSet<>();
            for (int rank = 0; rank < world.size(); rank++) {
                WanWarmUp.Result result = results.get(rank);
                assertThat(result.problems()).as("rank %d", rank).isEmpty();
                int me = rank;
                assertThat(result.sent()).as("rank %d sends only its own edges", rank).allMatch(e -> e.from() == me);
                assertThat(result.received()).as("rank %d takes only its own edges", rank).allMatch(e -> e.to() == me);
                assertThat(result.bytesSent()).isEqualTo(65536L * result.sent().size());
                assertThat(result.bytesReceived()).isEqualTo(65536L * result.received().size());
                sent.addAll(result.sent());
                received.addAll(result.received());
            }
            assertThat(sent).isEqualTo(TREE_WAN_EDGES);
            assertThat(received).isEqualTo(TREE_WAN_EDGES);
            assertThat(results.get(1).sent()).as("rank 1 coordinates nothing").isEmpty();
            Blocking.await(early);
            Message program = Blocking.await(world.get(3).receive(0, 0));
            assertThat(program.payload().toString()).isEqualTo("program");
        }
    }

    @Test
    void autoSizesEachDirectionFromItsLinksBandwidthDelayProduct() {
        GridModel model = GridConfigs.parse(FOUR_SITES.replace("(between = \"a\" \"b\") (rtt_ms = 10)",
                "(between = \"a\" \"b\") (rtt_ms = 40) (bandwidth_mbps = 100)"), "sizes.rsl").orElseThrow();
        WarmUpSizes auto = new WarmUpSizes(model, WarmWanSetting.AUTO);

        assertThat(auto.bytes("a", "b")).as("2 x 100 Mbit/s x 40 ms").isEqualTo(1_000_000);
        assertThat(auto.bytes("b", "d")).as("200 ms at the assumed 100 Mbit/s: 5 MB, capped")
                .isEqualTo(WarmUpSizes.AUTO_MAX_BYTES);
        assertThat(auto.bytes("b", "c")).as("2 x 100 Mbit/s x 20 ms").isEqualTo(500_000);
        assertThat(auto.bytes("a", "d")).as("2 x 100 Mbit/s x 30 ms").isEqualTo(750_000);
        assertThat(new WarmUpSizes(GridConfigs.parse(FOUR_SITES, "short.rsl").orElseThrow(), WarmWanSetting.AUTO)
                .bytes("a", "b")).as("10 ms: 250 kB, raised to the least").isEqualTo(WarmUpSizes.AUTO_MIN_BYTES);
        assertThat(new WarmUpSizes(model, WarmWanSetting.fixed(4096)).bytes("a", "b")).isEqualTo(4096);
    }

    @Test
    void aPeerWhoseFlightsNeverComeCostsOnlyItsEdgesAndTheJobGoesOn() {
        GridModel model = GridConfigs.parse(FOUR_SITES, "warm-late.rsl").orElseThrow();
        try (EmulatedGrid grid = EmulatedGrid.start(model, "cli-warm-wan-late", 6)) {
            List<Communicator> world = grid.world();
            CollectivePlan plan = ConfiguredPlans.of(world.get(0).members(), model);
            WarmUpSizes sizes = new WarmUpSizes(model, WarmWanSetting.fixed(65536));
            List<Future<WanWarmUp.Result>> runs = new ArrayList<>();
            Future<Communicator> silent = null;
            for (Communicator communicator : world) {
                if (communicator.rank() == 3) {
                    silent = communicator.split(0, 3);   // takes part in the split, then sends and takes nothing
                } else {
                    runs.add(WanWarmUp.start(communicator, plan, sizes, 3_000));
                }
            }
            List<WanWarmUp.Result> results = awaitAll(runs);   // ranks 0, 1, 2 and 4
            Blocking.await(silent);

            WanWarmUp.Result atB = results.get(2);
            assertThat(atB.problems()).as("rank 2 waited for rank 3's flight").isNotEmpty()
                    .first().asString().contains("not done within 3000 ms");
            assertThat(atB.sent()).contains(new Edge(2, 0));
            assertThat(atB.received()).contains(new Edge(0, 2)).doesNotContain(new Edge(3, 2));
            assertThat(results.get(3).problems()).as("rank 4 at d never waits for c").isEmpty();
            // WORLD is untouched: the program still talks over the very connections
            Blocking.await(world.get(3).send(2, 7, Buffer.buffer("after")));
            assertThat(Blocking.await(world.get(2).receive(3, 7)).payload().toString()).isEqualTo("after");
        }
    }

    @Test
    void aMalformedFlightIsRefusedNamingTheSender() {
        GridModel model = GridConfigs.parse(FOUR_SITES, "warm-bad.rsl").orElseThrow();
        try (EmulatedGrid grid = EmulatedGrid.start(model, "cli-warm-wan-bad", 7)) {
            List<Communicator> world = grid.world();
            Blocking.await(world.get(2).send(0, 0, Buffer.buffer(new byte[2])));
            Blocking.await(world.get(2).send(0, 0, Buffer.buffer(new byte[8]).setInt(0, 12)));

            assertThatThrownBy(() -> Blocking.await(WarmUpFlight.receive(world.get(0), 2)))
                    .hasMessageContaining("rank 2 sent a malformed warm-up flight: a chunk of 2 bytes");
            assertThatThrownBy(() -> Blocking.await(WarmUpFlight.receive(world.get(0), 2)))
                    .hasMessageContaining("rank 2 sent a malformed warm-up flight: a flight size of 12 bytes");
        }
    }

    @Test
    void offOneSiteAndAutoOnLoopbackWarmNothingAndSayWhy() {
        GridModel model = GridConfigs.parse(FOUR_SITES, "warm-declined.rsl").orElseThrow();
        try (EmulatedGrid grid = EmulatedGrid.start(model, "cli-warm-wan-declined", 8)) {
            List<Member> members = grid.world().get(0).members();

            assertThat(WanWarmUp.declined(WarmWanSetting.OFF, members)).contains("--warm-wan off");
            assertThat(WanWarmUp.declined(WarmWanSetting.AUTO, members)).get().asString().contains("loopback");
            assertThat(WanWarmUp.declined(WarmWanSetting.fixed(4096), members)).isEmpty();
            assertThat(WanWarmUp.declined(WarmWanSetting.fixed(4096), members.subList(0, 2)))
                    .contains("every process is at one site");
        }
    }

    @Test
    void theSettingReadsOffAutoOrBytesAndRefusesTheRestNamingTheOption() {
        assertThat(WarmWanSetting.parse("off")).isEqualTo(WarmWanSetting.OFF);
        assertThat(WarmWanSetting.parse("0")).isEqualTo(WarmWanSetting.OFF);
        assertThat(WarmWanSetting.parse("AUTO")).isEqualTo(WarmWanSetting.AUTO);
        assertThat(WarmWanSetting.parse("1048576")).isEqualTo(WarmWanSetting.fixed(1 << 20));
        assertThatThrownBy(() -> WarmWanSetting.parse("-1")).hasMessageStartingWith("--warm-wan -1: give off, auto or 1024");
        assertThatThrownBy(() -> WarmWanSetting.parse("100")).hasMessageContaining("--warm-wan 100");
        assertThatThrownBy(() -> WarmWanSetting.parse(Integer.toString(WarmUpSizes.MAX_BYTES + 1)))
                .hasMessageContaining("--warm-wan");
        assertThatThrownBy(() -> WarmWanSetting.parse("lots")).hasMessageContaining("--warm-wan 'lots'");
    }

    private static <T> List<T> awaitAll(List<Future<T>> futures) {
        return futures.stream().map(Blocking::await).toList();
    }
}
