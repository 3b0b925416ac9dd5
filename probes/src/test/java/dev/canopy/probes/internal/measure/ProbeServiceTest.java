package dev.canopy.probes.internal.measure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.testing.Await;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.core.transport.VertxTransport;
import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.forecast.ForecastSettings;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.probes.internal.forecast.LinkState;
import dev.canopy.probes.internal.schedule.ProbeLink;
import dev.canopy.probes.internal.schedule.ProbePlan;
import dev.canopy.probes.internal.schedule.ScheduleSettings;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Probe services on real loopback sockets, without WAN emulation. */
class ProbeServiceTest {

    static final ProbeSettings FAST = ProbeSettings.around(
            ScheduleSettings.DEFAULTS.withLatencyPeriod(Duration.ofMillis(20)).withBandwidthPeriod(Duration.ofMillis(200)),
            ForecastSettings.DEFAULTS.withStalePeriods(5)).withProbeTimeout(Duration.ofMillis(80));
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private static long freshSamples(LiveGrid grid, ProbeLink link, Metric metric) {
        int owner = grid.members.indexOf(link.owner());
        return Await.result(grid.service(owner).forecast(link.link(), metric))
                .filter(LinkForecast::isFresh).map(f -> f.forecast().samples()).orElse(0L);
    }

    @Test
    void measuresEveryPlannedLinkAndCountsItsLoad() {
        try (LiveGrid grid = LiveGrid.start(List.of("a", "a", "b", "b"), FAST)) {
            ProbePlan plan = Await.result(grid.service(0).plan());
            Await.until(DEADLINE, () -> plan.links().stream().allMatch(l -> freshSamples(grid, l, Metric.ROUND_TRIP_TIME) >= 10),
                    () -> "every planned link has 10 round-trip samples");
            for (ProbeLink link : plan.links()) {
                LinkForecast forecast = Await.result(grid.service(grid.members.indexOf(link.owner()))
                        .forecast(link.link(), Metric.ROUND_TRIP_TIME)).orElseThrow();
                assertThat(forecast.forecast().value()).as("loopback round trip of %s", link.link()).isBetween(0.0, 20.0);
            }
            ProbeLink representatives = plan.links().stream()
                    .filter(l -> l.owner().equals(plan.representatives().get("wan/a"))
                            || l.peer().equals(plan.representatives().get("wan/a")))
                    .filter(l -> !ProbePlan.siteKey(l.owner()).equals(ProbePlan.siteKey(l.peer())))
                    .findFirst().orElseThrow();
            Await.until(DEADLINE, () -> freshSamples(grid, representatives, Metric.BANDWIDTH) >= 2,
                    () -> "bandwidth samples between the representatives");

            ProbeStatistics statistics = Await.result(grid.service(0).statistics());
            assertThat(statistics.messagesPerSecond()).isPositive();
            assertThat(statistics.droppedTotal()).as("drops %s", statistics.dropped()).isZero();
        }
    }

    @Test
    void answersOnlyLiveMembersOfTheJobAndCountsTheRest() throws Exception {
        try (LiveGrid grid = LiveGrid.start(List.of("a", "b"), FAST)) {
            Transport intruder = Await.result(VertxTransport.start(grid.vertx,
                    TransportOptions.defaults().withNodeLabel("x/intruder"), grid.security));
            AtomicInteger answersToIntruder = new AtomicInteger();
            intruder.datagramHandler(datagram -> answersToIntruder.incrementAndGet());
            long job = LiveGrid.JOB.frameKey();
            var target = grid.members.get(0);
            intruder.sendDatagram(target, ProbeFrames.request(job + 1, 1, 0, 1, 0));          // another job
            intruder.sendDatagram(target, ProbeFrames.request(job, 1, 0, 2, 0));              // rank 1's, from elsewhere
            intruder.sendDatagram(target, ProbeFrames.request(job, 7, 0, 3, 0));              // no such rank
            intruder.sendDatagram(target, ProbeFrames.request(job, 1, 5, 4, 0));              // for another rank
            intruder.sendDatagram(target, new Frame(dev.canopy.core.internal.frame.FrameType.PROBE_REQUEST, job, 0, 0, 1, 0, 0, 5,
                    io.vertx.core.buffer.Buffer.buffer("x")));                                  // bad payload
            Await.until(DEADLINE, () -> Await.result(grid.service(0).statistics()).droppedTotal() >= 5,
                    () -> "five drops at node 0: " + Await.result(grid.service(0).statistics()).dropped());

            ProbeStatistics statistics = Await.result(grid.service(0).statistics());
            assertThat(statistics.dropped(DropReason.OTHER_JOB)).isEqualTo(1);
            assertThat(statistics.dropped(DropReason.WRONG_SENDER_ADDRESS)).isEqualTo(2);
            assertThat(statistics.dropped(DropReason.NOT_A_MEMBER)).isEqualTo(1);
            assertThat(statistics.dropped(DropReason.NOT_FOR_THIS_NODE)).isEqualTo(1);
            assertThat(answersToIntruder).hasValue(0);
            Await.result(intruder.close());
        }
    }

    @Test
    void aLinkWhosePeerDiesTurnsStaleAndSubscribersHear() {
        try (LiveGrid grid = LiveGrid.start(List.of("a", "a"), FAST)) {
            ProbeLink link = Await.result(grid.service(0).plan()).links().get(0);
            int owner = grid.members.indexOf(link.owner());
            int peer = 1 - owner;
            List<LinkForecast> heard = new CopyOnWriteArrayList<>();
            grid.service(owner).subscribe(heard::add);
            Await.until(DEADLINE, () -> freshSamples(grid, link, Metric.ROUND_TRIP_TIME) >= 5, () -> "5 samples");

            Await.result(grid.service(peer).stop());
            Await.result(grid.transports.get(peer).close());

            Await.until(DEADLINE, () -> heard.stream().anyMatch(f -> f.state() == LinkState.STALE),
                    () -> "a STALE notice, heard: " + heard);
            LinkForecast stale = Await.result(grid.service(owner).forecast(link.link(), Metric.ROUND_TRIP_TIME))
                    .orElseThrow();
            assertThat(stale.state()).isEqualTo(LinkState.STALE);
            assertThat(stale.lost()).isPositive();
        }
    }

    @Test
    void whenARepresentativeLeavesTheNextOneTakesOverTheSitePair() {
        try (LiveGrid grid = LiveGrid.start(List.of("a", "a", "b"), FAST)) {
            ProbePlan before = Await.result(grid.service(0).plan());
            var leaving = before.representatives().get("wan/a");
            int leavingIndex = grid.members.indexOf(leaving);
            Await.result(grid.service(leavingIndex).stop());
            Await.result(grid.transports.get(leavingIndex).close());
            var view = grid.view.withDeparture(leaving.id());
            for (int i = 0; i < grid.services.size(); i++) {
                if (i != leavingIndex) {
                    grid.service(i).updateMembership(view);
                }
            }
            int survivor = leavingIndex == 0 ? 1 : 0;
            ProbePlan after = Await.result(grid.service(survivor).plan());
            assertThat(after.representatives().get("wan/a")).isEqualTo(grid.members.get(survivor));
            ProbeLink siteLink = after.links().stream()
                    .filter(l -> l.link().touches(grid.members.get(survivor).id()) && l.link().touches(grid.members.get(2).id()))
                    .findFirst().orElseThrow();
            Await.until(DEADLINE, () -> freshSamples(grid, siteLink, Metric.ROUND_TRIP_TIME) >= 5,
                    () -> "the new representative's link to site b is measured");
            assertThat(after.links()).noneMatch(l -> l.link().touches(leaving.id()));
        }
    }
}
