package dev.canopy.collectives.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.CollectiveObserver;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.collectives.plan.SizedPlan;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job without probes on a level file with thin uplinks and {@code auto} at the WAN level: every session joins with
 * the file's trees per size class, so a 2-byte and a 1 MiB collective in one job run on different trees, each picked
 * by its size, with exact results. Four real sessions on 127.0.0.1 and a real ZooKeeper.
 */
@Timeout(240)
class SizedLevelFileSessionTest {

    /** Four sites behind 10 Mb/s uplinks: a star pushes three copies of a large message through the root's. */
    private static final String LEVEL_FILE = """
            +
            ( &(type = grid) (name = "sized-four") (default_rtt_ms = 40) (levels = (heavy_wan auto) (light_wan auto)) )
            ( &(type = subjob) (label = "a") (count = 1) (wan_group = "a") (site = "a") (uplink_mbps = 10) )
            ( &(type = subjob) (label = "b") (count = 1) (wan_group = "b") (site = "b") (uplink_mbps = 10) )
            ( &(type = subjob) (label = "c") (count = 1) (wan_group = "c") (site = "c") (uplink_mbps = 10) )
            ( &(type = subjob) (label = "d") (count = 1) (wan_group = "d") (site = "d") (uplink_mbps = 10) )
            ( &(type = link) (between = "a" "b") (rtt_ms = 20) )
            ( &(type = link) (between = "a" "c") (rtt_ms = 30) )
            ( &(type = link) (between = "a" "d") (rtt_ms = 40) )
            ( &(type = link) (between = "b" "c") (rtt_ms = 20) )
            ( &(type = link) (between = "b" "d") (rtt_ms = 30) )
            ( &(type = link) (between = "c" "d") (rtt_ms = 20) )
            """;
    private static final int SMALL = 8;
    private static final int LARGE = 1 << 20;

    private final JobSecret secret = JobSecret.generate();
    /** Per "rank/collective" (0 for the first the test starts), the id of the class plan the member ran it on. */
    private final Map<String, Long> ranOn = new ConcurrentHashMap<>();

    @Test
    void smallAndLargeCollectivesOfOneJobRunOnTheirSizeClassesTreesExactly() throws Exception {
        GridModel grid = GridConfigs.parse(LEVEL_FILE, "sized-four.rsl").orElseThrow();
        try (TestingServer zooKeeper = new TestingServer(true)) {
            List<CanopySession> sessions = join(grid, zooKeeper.getConnectString());
            try {
                CollectivePlan plan = sessions.get(0).collectives().plan();
                assertThat(plan).as("the session's plan from the level file").isInstanceOf(SizedPlan.class);
                assertThat(plan.forBytes(LARGE).tree(0).toString()).as("the 1 MiB tree from rank 0")
                        .isNotEqualTo(plan.forBytes(SMALL).tree(0).toString());
                assertThat(sessions).allSatisfy(session -> assertThat(session.collectives().plan().epoch())
                        .isEqualTo(plan.epoch()));
                List<Collectives> members = sessions.stream().map(session -> session.collectives()
                        .withObserver(observerOf(session.rank()))).toList();

                int collective = 0;
                for (int bytes : new int[] {SMALL, LARGE}) {
                    byte[] data = new byte[bytes];
                    new SplittableRandom(bytes).nextBytes(data);
                    List<Buffer> received = all(members, member -> member.bcast(
                            member.rank() == 0 ? Buffer.buffer(data) : null, 0));
                    assertThat(received).allSatisfy(buffer -> assertThat(buffer.getBytes()).isEqualTo(data));
                    List<Buffer> sums = all(members, member -> member.allreduce(longs(bytes, member.rank()),
                            ElementType.LONG, BuiltInOp.SUM));
                    assertThat(sums).allSatisfy(sum -> assertThat(sum).isEqualTo(sumOfAll(bytes, members.size())));
                    long classId = plan.forBytes(bytes).epoch();
                    for (int rank = 0; rank < members.size(); rank++) {
                        assertThat(ranOn.get(rank + "/" + collective)).as("rank %d's bcast of %d bytes", rank, bytes)
                                .isEqualTo(classId);
                        assertThat(ranOn.get(rank + "/" + (collective + 1))).as("rank %d's allreduce of %d bytes",
                                rank, bytes).isEqualTo(classId);
                    }
                    collective += 2;
                }
            } finally {
                sessions.forEach(CanopySession::leave);
            }
        }
    }

    private List<CanopySession> join(GridModel grid, String connectString) {
        List<Future<CanopySession>> joining = new ArrayList<>();
        for (int process = 0; process < grid.processCount(); process++) {
            joining.add(Canopy.joinAsync(Vertx.vertx(), new JoinOptions(JobId.of("sized-four"), process, grid,
                    connectString, TransportStack.none(), secret)));
        }
        List<CanopySession> sessions = new ArrayList<>();
        for (Future<CanopySession> session : joining) {
            sessions.add(Await.result(session));
        }
        sessions.sort((x, y) -> Integer.compare(x.rank(), y.rank()));
        return sessions;
    }

    /** Records the class plan of each collective the member ran, by its rank and the collective's place in the test. */
    private CollectiveObserver observerOf(int rank) {
        AtomicInteger started = new AtomicInteger();
        return (operation, root, bytes) -> new CollectiveObserver.Observation() {
            private final int index = started.getAndIncrement();

            @Override
            public void ranOn(CollectivePlan classPlan) {
                ranOn.put(rank + "/" + index, classPlan.epoch());
            }

            @Override
            public void completed(Throwable failure) {
            }
        };
    }

    private static <T> List<T> all(List<Collectives> members, Function<Collectives, Future<T>> collective) {
        List<Future<T>> started = members.stream().map(collective).toList();
        return started.stream().map(Await::result).toList();
    }

    private static Buffer longs(int bytes, int rank) {
        Buffer values = Buffer.buffer(bytes);
        for (int k = 0; k < bytes / Long.BYTES; k++) {
            values.appendLong((long) k * (rank + 1));
        }
        return values;
    }

    private static Buffer sumOfAll(int bytes, int members) {
        Buffer values = Buffer.buffer(bytes);
        for (int k = 0; k < bytes / Long.BYTES; k++) {
            values.appendLong((long) k * members * (members + 1) / 2);
        }
        return values;
    }
}
