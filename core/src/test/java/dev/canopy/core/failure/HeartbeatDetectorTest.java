package dev.canopy.core.failure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.node.NodeId;
import java.time.Duration;
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

    private long nowNanos = 5_000_000_000L;
    private final HeartbeatDetector detector = new HeartbeatDetector(SETTINGS, () -> nowNanos, new SplittableRandom(7));

    @Test
    void aMemberIsOverdueExactlyWhenTheTimeoutHasPassedSinceItsLastHeartbeat() {
        detector.heard(A);
        advanceMillis(999);
        assertThat(detector.overdue()).isEmpty();
        detector.heard(A);
        advanceMillis(999);
        assertThat(detector.overdue()).as("a heartbeat restarts the timeout").isEmpty();
        assertThat(detector.silenceMillis(A)).isEqualTo(999);
        advanceMillis(1);
        assertThat(detector.overdue()).containsExactly(A);
    }

    @Test
    void eachOverdueMemberIsReportedOnceAndOnlyMembersHeardFromAreWatched() {
        detector.heard(A);
        advanceMillis(500);
        detector.heard(B);
        advanceMillis(600);
        assertThat(detector.overdue()).containsExactly(A);
        assertThat(detector.overdue()).isEmpty();
        assertThat(detector.silenceMillis(A)).isEqualTo(-1);
        advanceMillis(400);
        assertThat(detector.overdue()).containsExactly(B);
        advanceMillis(60_000);
        assertThat(detector.overdue()).as("a member never heard from is never suspected").isEmpty();
    }

    @Test
    void aForgottenMemberIsNotReported() {
        detector.heard(A);
        detector.forget(A);
        advanceMillis(5_000);
        assertThat(detector.overdue()).isEmpty();
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
        nowNanos += millis * 1_000_000;
    }
}
