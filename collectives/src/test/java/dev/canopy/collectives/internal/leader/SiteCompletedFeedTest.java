package dev.canopy.collectives.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.testing.Await;
import dev.canopy.core.testing.ManualClock;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.probes.internal.Link;
import dev.canopy.probes.internal.Metric;
import dev.canopy.probes.internal.forecast.ForecastSettings;
import dev.canopy.probes.internal.forecast.LinkForecast;
import dev.canopy.probes.internal.forecast.LinkForecasts;
import dev.canopy.probes.internal.forecast.LinkState;
import dev.canopy.probes.internal.measure.SiteForecastWatcher;
import dev.canopy.probes.internal.measure.SitePairForecast;
import dev.canopy.probes.internal.measure.SiteSummary;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * A leader's node probes one WAN link itself; a representative elsewhere publishes its site pair in ZooKeeper.
 * The completed feed gives every member pair of the published site pair, the node's own forecast wins for its
 * own link, and a new summary is a change its subscribers hear.
 */
class SiteCompletedFeedTest {

    private static final JobId JOB = JobId.of("site-feed");
    private static final Member X1 = member("x1", "x");
    private static final Member X2 = member("x2", "x");
    private static final Member Y1 = member("y1", "y");
    private static final Member Y2 = member("y2", "y");

    @Test
    void publishedSitePairsCompleteTheNodesOwnForecasts() throws Exception {
        Vertx vertx = Vertx.vertx();
        try (TestingServer zooKeeper = new TestingServer(true);
                CuratorFramework client = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100))) {
            client.start();
            Context context = vertx.getOrCreateContext();
            LinkForecasts own = new LinkForecasts(ForecastSettings.DEFAULTS, new ManualClock());
            Link x1y1 = Link.between(X1.id(), Y1.id());
            Await.result(onContext(context, () -> own.record(x1y1, Metric.ROUND_TRIP_TIME, 8.0, Duration.ofSeconds(1))));
            try (SiteForecastWatcher sites = new SiteForecastWatcher(context, client, JOB)) {
                SiteCompletedFeed feed = new SiteCompletedFeed(ForecastFeed.of(own, context), sites, context,
                        List.of(X1, X2, Y1, Y2));
                AtomicInteger changes = new AtomicInteger();
                Await.result(onContext(context, () -> feed.subscribe(change -> changes.incrementAndGet())));
                sites.start();

                SiteSummary summary = new SiteSummary("y", "y1", List.of(new SitePairForecast("y", "x", LinkState.FRESH,
                        40.0, 1.5, "median-10", 30, OptionalDouble.of(150))));
                client.create().creatingParentsIfNeeded().forPath("/canopy/jobs/" + JOB.name() + "/probes/summary/y",
                        summary.toJson().encode().getBytes(StandardCharsets.UTF_8));
                Await.until(() -> changes.get() > 0, () -> "the subscriber hears the published summary");

                List<LinkForecast> all = Await.result(feed.all());
                List<LinkForecast> roundTrips = all.stream().filter(f -> f.metric() == Metric.ROUND_TRIP_TIME).toList();
                assertThat(roundTrips).filteredOn(f -> !f.link().equals(x1y1)).extracting(LinkForecast::link)
                        .containsExactlyInAnyOrder(Link.between(X2.id(), Y1.id()), Link.between(X1.id(), Y2.id()),
                                Link.between(X2.id(), Y2.id()));
                assertThat(roundTrips).filteredOn(f -> !f.link().equals(x1y1))
                        .allSatisfy(f -> assertThat(f.forecast().value()).isEqualTo(40.0));
                assertThat(all).filteredOn(f -> f.metric() == Metric.BANDWIDTH).as("the site pair's bandwidth, every member pair")
                        .hasSize(4).allSatisfy(f -> assertThat(f.forecast().value()).isEqualTo(150.0));
                LatencySnapshot snapshot = new ForecastLatencies((from, to) -> 99).snapshot(
                        List.of("x1", "x2", "y1", "y2"), all);
                assertThat(snapshot.oneWayMs("x1", "y1")).as("the node's own measurement wins").isEqualTo(4.0);
                assertThat(snapshot.oneWayMs("x2", "y2")).as("from the site pair").isEqualTo(20.0);
                assertThat(snapshot.oneWayMs("x1", "x2")).as("inside a site: the fallback").isEqualTo(99.0);
            }
        } finally {
            Await.result(vertx.close());
        }
    }

    private static Member member(String id, String site) {
        return new Member(NodeId.of(id), new Coordinates(site, site, site, site, id), new NodeAddress("127.0.0.1", 1, 1));
    }

    private static <T> Future<T> onContext(Context context, Supplier<T> action) {
        Promise<T> done = Promise.promise();
        context.runOnContext(v -> done.complete(action.get()));
        return done.future();
    }
}
