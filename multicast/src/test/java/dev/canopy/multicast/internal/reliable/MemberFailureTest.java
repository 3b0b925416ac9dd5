package dev.canopy.multicast.internal.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.comm.RankFailedException;
import dev.canopy.multicast.internal.link.InProcessLinks;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A member dies mid-stream: every survivor's program fails with a {@link RankFailedException} naming the
 * dead rank (or had already finished), nothing keeps running or retransmitting, and every window buffer
 * and receive buffer is back. Every member is root of some messages and co-root of some streams, so the
 * dead rank is a leaf of some streams and a co-root of others.
 */
class MemberFailureTest {

    private static final long SEED = Long.getLong("canopy.seed", System.nanoTime());

    @Test
    @Timeout(60)
    void aNotifiedRootFailsEverySurvivorNamingTheDeadRank() {
        SimulatedGroup group = startedGroup(SEED);
        runUntilProgress(group, 400);
        group.kill(5);
        // Only rank 0 hears from the failure detector: the others learn it from rank 0.
        group.members.get(0).rankFailed(new RankFailedException(5, InProcessLinks.nodeOf(5), "its member znode was deleted"));
        assertEverySurvivorFailsNaming(group, 5);
    }

    @Test
    @Timeout(60)
    void aFailedReliableSendIsEnoughWithoutANotification() {
        SimulatedGroup group = startedGroup(SEED + 1);
        runUntilProgress(group, 400);
        group.kill(3);
        assertEverySurvivorFailsNaming(group, 3);
    }

    @Test
    @Timeout(60)
    void aDeadCoRootFailsItsLeavesToo() {
        // One root (rank 0), sub-groups of 3: rank 3 is a co-root whose leaves 4 and 5 acknowledge only to it.
        SimulatedGroup group = startedGroup(SEED + 2, 0);
        runUntilProgress(group, 400);
        group.kill(3);
        group.members.get(0).rankFailed(new RankFailedException(3, InProcessLinks.nodeOf(3), "killed"));
        assertEverySurvivorFailsNaming(group, 3);
        assertThat(group.failure(4)).isInstanceOf(RankFailedException.class);
        assertThat(group.failure(5)).isInstanceOf(RankFailedException.class);
    }

    private static SimulatedGroup startedGroup(long seed) {
        return startedGroup(seed, -1);
    }

    private static SimulatedGroup startedGroup(long seed, int onlyRoot) {
        System.out.println("MemberFailureTest seed: " + seed + " (replay with -Dcanopy.seed=" + seed + ")");
        SimulatedGroup group = new SimulatedGroup(new SimulatedGroup.Settings(12, 3, 0.05, 100 * SimulatedGroup.MICROS, 0,
                1, 2_000, ReliableMulticastSimulationTest.SIMULATED, seed, onlyRoot));
        group.start();
        return group;
    }

    private static void runUntilProgress(SimulatedGroup group, int messages) {
        assertThat(group.simulation.runUntil(() -> group.progress(0) >= messages, Long.MAX_VALUE)).isTrue();
    }

    private static void assertEverySurvivorFailsNaming(SimulatedGroup group, int dead) {
        long killedAt = group.simulation.nanoTime();
        assertThat(group.simulation.runUntil(group::finished, killedAt + Duration.ofSeconds(10).toNanos()))
                .as("every survivor's program ended").isTrue();
        int failed = 0;
        for (int i = 0; i < group.members.size(); i++) {
            if (i == dead) {
                continue;
            }
            Throwable failure = group.failure(i);
            if (failure == null) {
                assertThat(group.progress(i)).as("member %d finished instead", i).isEqualTo(group.messages());
                continue;
            }
            failed++;
            assertThat(failure).as("member %d", i).isInstanceOf(RankFailedException.class);
            assertThat(((RankFailedException) failure).rank()).as("member %d names the dead rank", i).isEqualTo(dead);
            assertThat(failure.getMessage()).contains("rank " + dead, "member-" + dead);
        }
        assertThat(failed).as("survivors that failed").isPositive();
        assertThat(group.errors()).isEmpty();
        // Nothing keeps going: no timer re-arms, no retransmission loops; then every buffer is back.
        assertThat(group.simulation.runUntil(() -> group.simulation.pendingEvents() == 0,
                group.simulation.nanoTime() + Duration.ofSeconds(10).toNanos())).as("the simulation drains").isTrue();
        for (int i = 0; i < group.members.size(); i++) {
            if (i != dead) {
                ReliableMulticast member = group.members.get(i);
                assertThat(member.windowSlotsInUse()).as("member %d window buffers in use", i).isZero();
                assertThat(member.postedReceiveBuffers()).as("member %d receive buffers posted", i)
                        .isEqualTo(member.receiveBufferCount());
                assertThat(member.failure()).as("member %d stopped", i).isNotNull();
            }
        }
    }
}
