package dev.canopy.probes.internal.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.testing.Await;
import dev.canopy.probes.internal.forecast.ErrorMetric;
import dev.canopy.probes.internal.forecast.LinkState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

class SiteSummaryPublisherTest {

    @Test
    void representativesPublishTheirSitePairsForToolsOutsideTheJob() throws Exception {
        try (TestingServer zooKeeper = new TestingServer(true);
             CuratorFramework client = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100));
             LiveGrid grid = LiveGrid.start(List.of("a", "a", "b", "c"), ProbeServiceTest.FAST)) {
            client.start();
            List<List<SitePairForecast>> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
            SiteForecastWatcher watcher = new SiteForecastWatcher(grid.vertx.getOrCreateContext(), client, LiveGrid.JOB);
            watcher.onChange(heard::add);
            watcher.start();
            List<SiteSummaryPublisher> publishers = new ArrayList<>();
            for (ProbeService service : grid.services) {
                SiteSummaryPublisher publisher = new SiteSummaryPublisher(grid.vertx, service, client, LiveGrid.JOB,
                        Duration.ofMillis(100), ErrorMetric.MEAN_SQUARED);
                publisher.start();
                publishers.add(publisher);
            }
            // Three sites, three representative pairs, each published by the representative that probes it.
            Await.until(Duration.ofSeconds(20), () -> pairsWithSamples(client) == 3,
                    () -> "three site pairs with samples in ZooKeeper");
            List<SiteSummary> summaries = SiteSummaryPublisher.readBlocking(client, LiveGrid.JOB);
            assertThat(summaries).extracting(SiteSummary::representative).doesNotContain("a-n1");
            assertThat(summaries).flatExtracting(SiteSummary::pairs).allSatisfy(pair -> {
                assertThat(pair.state()).isEqualTo(LinkState.FRESH);
                assertThat(pair.rttMs()).isBetween(0.0, 20.0);
                assertThat(pair.forecaster()).isNotBlank();
            });
            // The plan leader's view: every representative's pairs merged, pushed as they change.
            Await.until(Duration.ofSeconds(20), () -> !heard.isEmpty() && heard.get(heard.size() - 1).size() == 3
                    && heard.get(heard.size() - 1).stream().allMatch(pair -> pair.samples() > 5),
                    () -> "the watcher hears all three pairs: " + (heard.isEmpty() ? "nothing" : heard.get(heard.size() - 1)));
            watcher.close();
            publishers.forEach(SiteSummaryPublisher::stop);
        }
    }

    @Test
    void aDamagedSummaryIsReportedWithItsPlace() {
        assertThatThrownBy(() -> SiteSummary.fromJson("{\"site\":1}".getBytes(StandardCharsets.UTF_8), "/x/y"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/x/y");
    }

    private static long pairsWithSamples(CuratorFramework client) {
        try {
            return SiteSummaryPublisher.readBlocking(client, LiveGrid.JOB).stream()
                    .flatMap(summary -> summary.pairs().stream()).filter(pair -> pair.samples() > 5).count();
        } catch (Exception e) {
            throw new AssertionError("cannot read the probe summaries", e);
        }
    }
}
