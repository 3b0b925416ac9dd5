package dev.canopy.core.internal.failure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The heartbeat detector's arithmetic, on a clock the test moves: no sleeping. */
@Timeout(10)
class HeartbeatDetectorTest {

    private static final HeartbeatSettings SETTINGS = new HeartbeatSettings(Duration.ofMillis(100),
            Duration.ofMillis(1000), 0.2);
    private static final NodeId A = NodeId.of("a");
    private static final NodeId B = NodeId.of("b");

    private final ManualClock clock = new ManualClock(5_000_000_000L);
    private final HeartbeatDetector detector = new HeartbeatDetector(SETTINGS, clock, new SplittableRandom(7));

    @Test
    void aMemberIsOverdueExactlyWhenTheTimeoutHasPassedSinceItsLastHeartbeat() {
        detector.heard(A);
        assertThat(checkFor(999)).isEmpty();
        detector.heard(A);
        assertThat(checkFor(999)).as("a heartbeat restarts the timeout").isEmpty();
        assertThat(detector.silenceMillis(A)).isEqualTo(999);
        assertThat(checkFor(1)).containsExactly(A);
    }

    @Test
    void eachOverdueMemberIsReportedOnceAndOnlyMembersHeardFromAreWatched() {
        detector.heard(A);
        checkFor(500);
        detector.heard(B);
        assertThat(checkFor(600)).containsExactly(A);
        assertThat(detector.silenceMillis(A)).isEqualTo(-1);
        assertThat(checkFor(400)).containsExactly(B);
        assertThat(checkFor(60_000)).as("a member never heard from is never suspected").isEmpty();
    }

    @Test
    void aForgottenMemberIsNotReported() {
        detector.heard(A);
        detector.forget(A);
        assertThat(checkFor(5_000)).isEmpty();
    }

    /** Heartbeats may wait unread while this node is stalled: silence counts again from the end of the stall. */
    @Test
    void afterALocalStallNobodyIsReportedAndSilenceCountsFromTheStallsEnd() {
        detector.heard(A);
        checkFor(200);
        advanceMillis(3_000);
        assertThat(detector.overdue()).as("the check itself came 3 s late").isEmpty();
        assertThat(detector.silenceMillis(A)).isZero();
        assertThat(checkFor(999)).isEmpty();
        assertThat(checkFor(1)).containsExactly(A);
    }

    @Test
    void heartbeatDelaysStayWithinTheJitterAroundThePeriodAndVary() {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < 1_000; i++) {
            long delay = detector.nextDelayMillis();
            min = Math.min(min, delay);
            max = Math.max(max, delay);
        }
        assertThat(min).isBetween(80L, 85L);
        assertThat(max).isBetween(115L, 120L);
        assertThat(detector.checkEveryMillis()).isEqualTo(100);
    }

    @Test
    void settingsThatWouldFailMembersForOneLateHeartbeatAreRejected() {
        assertThatThrownBy(() -> new HeartbeatSettings(Duration.ofMillis(500), Duration.ofMillis(900), 0.1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least twice the period");
        assertThatThrownBy(() -> new HeartbeatSettings(Duration.ofMillis(500), Duration.ofSeconds(5), 0.7))
                .hasMessageContaining("jitter");
        assertThatThrownBy(() -> new HeartbeatSettings(Duration.ZERO, Duration.ofSeconds(5), 0.1))
                .hasMessageContaining("at least 1 ms");
    }

    private void advanceMillis(long millis) {
        clock.advance(Duration.ofMillis(millis));
    }

    /** Moves the clock by {@code millis}, checking every 100 ms (and at the end) as the monitor does; all reported. */
    private List<NodeId> checkFor(long millis) {
        List<NodeId> reported = new ArrayList<>();
        for (long done = 0; done < millis; ) {
            long step = Math.min(100, millis - done);
            advanceMillis(step);
            done += step;
            reported.addAll(detector.overdue());
        }
        return reported;
    }
}
