package dev.canopy.core.internal.failure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.failure.ZnodeSuspicions.Verdict;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.testing.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A deleted member znode's confirmation window on a clock the test moves (period 500 ms, timeout 5 s): the suspect's
 * silence fails it only while another member is heard, so a node that read nothing for a while (its event loops
 * starved, the JVM paused) waits on instead of failing a member whose heartbeats sit unread in its sockets.
 */
class ZnodeSuspicionsTest {

    private static final NodeId SUSPECT = NodeId.of("n1");
    private static final NodeId WITNESS = NodeId.of("n2");

    private final ManualClock clock = new ManualClock();
    private final ZnodeSuspicions suspicions = new ZnodeSuspicions(HeartbeatSettings.defaults(), clock);

    @Test
    void aSuspectSilentWhileAnotherMemberIsHeardFailsWhenItsWindowEnds() {
        assertThat(suspicions.suspect(SUSPECT)).isTrue();
        assertThat(suspicions.suspect(SUSPECT)).as("suspected once").isFalse();
        for (int period = 0; period < 4; period++) {
            clock.advance(Duration.ofMillis(500));
            suspicions.heard(WITNESS);
        }
        assertThat(suspicions.windowEnded(SUSPECT)).isEqualTo(Verdict.FAILED);
        assertThat(suspicions.isSuspected(SUSPECT)).isFalse();
    }

    @Test
    void aHeartbeatFromTheFirstPeriodProvesNothingAndALaterOneClearsTheSuspicion() {
        suspicions.suspect(SUSPECT);
        clock.advance(Duration.ofMillis(100));
        assertThat(suspicions.heard(SUSPECT)).as("in flight when the znode went").isFalse();
        clock.advance(Duration.ofMillis(500));
        assertThat(suspicions.heard(SUSPECT)).isTrue();
        assertThat(suspicions.windowEnded(SUSPECT)).isEqualTo(Verdict.NOT_SUSPECTED);
    }

    /** What a loaded machine can do to MemberZnodeDeletedTest: the window timer fires before anything was read. */
    @Test
    void whenThisNodeHeardNobodyLatelyTheWindowIsUndecidedAndALateHeartbeatStillClearsIt() {
        suspicions.heard(WITNESS);
        suspicions.suspect(SUSPECT);
        clock.advance(Duration.ofMillis(2_000));
        assertThat(suspicions.windowEnded(SUSPECT)).as("the witness was last heard 2 s ago").isEqualTo(Verdict.UNDECIDED);
        assertThat(suspicions.isSuspected(SUSPECT)).isTrue();
        clock.advance(Duration.ofMillis(300));
        assertThat(suspicions.heard(SUSPECT)).as("the suspect's heartbeat read after the stall").isTrue();
    }

    @Test
    void aWitnessHeardLongAgoHoldsTheSuspicionAtMostUntilTheHeartbeatTimeout() {
        suspicions.heard(WITNESS);
        suspicions.suspect(SUSPECT);
        clock.advance(Duration.ofMillis(2_000));
        assertThat(suspicions.windowEnded(SUSPECT)).isEqualTo(Verdict.UNDECIDED);
        clock.advance(Duration.ofMillis(3_000));
        assertThat(suspicions.windowEnded(SUSPECT)).isEqualTo(Verdict.FAILED);
    }

    @Test
    void withNoOtherMemberEverHeardTheWindowDecides() {
        suspicions.heard(SUSPECT);
        suspicions.suspect(SUSPECT);
        clock.advance(Duration.ofMillis(2_000));
        assertThat(suspicions.windowEnded(SUSPECT)).isEqualTo(Verdict.FAILED);
    }

    @Test
    void aDepartedMemberIsNeitherSuspectNorWitness() {
        NodeId third = NodeId.of("n3");
        suspicions.heard(third);
        suspicions.suspect(SUSPECT);
        suspicions.heard(WITNESS);
        clock.advance(Duration.ofMillis(2_000));
        suspicions.heard(WITNESS);
        suspicions.forget(WITNESS);
        assertThat(suspicions.windowEnded(SUSPECT)).as("only n3, heard 2 s ago, is left to witness")
                .isEqualTo(Verdict.UNDECIDED);
        suspicions.forget(SUSPECT);
        assertThat(suspicions.windowEnded(SUSPECT)).isEqualTo(Verdict.NOT_SUSPECTED);
    }
}
