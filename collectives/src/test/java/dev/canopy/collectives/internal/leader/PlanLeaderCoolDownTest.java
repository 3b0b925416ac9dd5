package dev.canopy.collectives.internal.leader;

import static dev.canopy.collectives.internal.leader.LeaderGrid.AB;
import static dev.canopy.collectives.internal.leader.LeaderGrid.AC;
import static dev.canopy.collectives.internal.leader.LeaderGrid.BC;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.JobId;
import dev.canopy.core.testing.Await;
import dev.canopy.core.testing.ManualClock;
import dev.canopy.topology.internal.replan.ReplanPolicy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The leader's cool-down on a clock the test moves: however many forecast changes arrive and however much
 * wall time passes, the leader evaluates once per interval of its clock. (Wall time does pass: the leader's
 * periodic tick and its wake-ups keep firing, and must not evaluate while the clock stands still.)
 */
@Timeout(60)
class PlanLeaderCoolDownTest {

    private static final Duration INTERVAL = Duration.ofMillis(100);

    private final ManualClock leaderClock = new ManualClock();
    private TestingServer zooKeeper;
    private LeaderGrid grid;

    @BeforeEach
    void startGrid() throws Exception {
        zooKeeper = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1), true);
        grid = new LeaderGrid(zooKeeper.getConnectString(), JobId.of("cool-down"),
                new LeaderSettings(ReplanPolicy.DEFAULT, INTERVAL), leaderClock);
        grid.record(AB, 20, 10);
        grid.record(BC, 20, 10);
        grid.record(AC, 30, 10);
        grid.start();
    }

    @AfterEach
    void stopGrid() throws Exception {
        grid.close();
        zooKeeper.close();
    }

    @Test
    void aBurstOfForecastChangesIsEvaluatedOncePerIntervalOfTheLeadersClock() {
        LeaderNode leader = grid.awaitLeader();
        grid.awaitEpoch(1); // the first evaluation, at clock 0, published the first plan
        List<Long> decidedAtNanos = new CopyOnWriteArrayList<>();
        leader.leader.onDecision(decision -> decidedAtNanos.add(leaderClock.nanoTime()));

        for (int round = 1; round <= 3; round++) {
            // a~c swings between 30 and 100 ms: every sample moves the forecast and asks for an evaluation.
            for (int i = 0; i < 50; i++) {
                grid.record(AC, i % 2 == 0 ? 30 : 100, 1);
            }
            // Half an interval is not enough; the rest of it is.
            leaderClock.advance(INTERVAL.dividedBy(2));
            leaderClock.advance(INTERVAL.dividedBy(2));
            int expected = round;
            Await.until(() -> decidedAtNanos.size() >= expected,
                    () -> "evaluation " + expected + " once the leader's clock passed the interval; decisions at "
                            + decidedAtNanos);
            assertThat(decidedAtNanos).as("one evaluation per interval of the clock, however many changes")
                    .hasSize(expected);
        }
        assertThat(decidedAtNanos).containsExactly(INTERVAL.toNanos(), 2 * INTERVAL.toNanos(), 3 * INTERVAL.toNanos());
        assertThat(leader.decisions).hasSize(3);
    }
}
