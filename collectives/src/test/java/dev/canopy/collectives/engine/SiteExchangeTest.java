package dev.canopy.collectives.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.PointToPoint;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/** On real nodes (12 ranks in 6 sites of 2): only coordinators cross sites, once per ordered site pair. */
class SiteExchangeTest {

    private static final int SIZE = 12;

    @Test
    void onlyCoordinatorsCrossSitesWithOneMessagePerOrderedSitePair() {
        try (LocalGrid grid = LocalGrid.start("site-exchange", SIZE)) {
            List<Communicator> world = grid.world();
            List<String> siteNames = new ArrayList<>();
            for (int rank = 0; rank < SIZE; rank++) {
                var coordinates = world.get(0).member(rank).coordinates();
                siteNames.add(coordinates.wanGroup() + "/" + coordinates.site());
            }
            Sites sites = Sites.of(siteNames);
            Queue<int[]> sent = new ConcurrentLinkedQueue<>();
            List<Future<List<Buffer>>> results = new ArrayList<>();
            for (Communicator member : world) {
                Promise<List<Buffer>> result = Promise.promise();
                member.context().runOnContext(ignored -> {
                    PointToPoint recording = new RecordingChannel(member.collectiveChannel(), sent);
                    Exchange exchange = new Exchange(recording, Operation.ALLTOALLV, 7, 0, "test#" + member.rank());
                    exchange.run(() -> new SiteExchange(exchange, sites, 0).run(blocksOf(member.rank())))
                            .onComplete(result);
                });
                results.add(result.future());
            }
            for (int rank = 0; rank < SIZE; rank++) {
                List<Buffer> received = LocalGrid.await(results.get(rank));
                for (int source = 0; source < SIZE; source++) {
                    assertThat(received.get(source).toString()).isEqualTo(source + "->" + rank);
                }
            }
            List<int[]> crossSite = sent.stream().filter(pair -> !sites.sameSite(pair[0], pair[1])).toList();
            assertThat(sites.count()).isEqualTo(6);
            assertThat(crossSite).hasSize(6 * 5).allSatisfy(pair -> {
                assertThat(pair[0]).isEqualTo(sites.coordinator(sites.siteOf(pair[0])));
                assertThat(pair[1]).isEqualTo(sites.coordinator(sites.siteOf(pair[1])));
            });
        }
    }

    private static List<Buffer> blocksOf(int source) {
        List<Buffer> blocks = new ArrayList<>();
        for (int destination = 0; destination < SIZE; destination++) {
            blocks.add(Buffer.buffer(source + "->" + destination));
        }
        return blocks;
    }
}
