package dev.canopy.processes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.testing.Await;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Spawning through agents with a real ZooKeeper and real child JVMs that join their job. */
class SpawnTest {

    @AutoClose
    private final AgentPool pool = AgentPool.start();

    @Test
    void coldChildrenJoinTheirJobAtTheSitesPlacementChose() throws Exception {
        LaunchAgent near = pool.agent("near", "yonsei-b", 0);
        LaunchAgent far = pool.agent("far", "kisti-b", 0);

        SpawnedChildren children = Await.result(pool.spawner.spawn(pool.order("kids-1", Programs.Stay.class, 3,
                Placement.automatic(), List.of())), Duration.ofSeconds(60));

        assertThat(children.members()).hasSize(3);
        // Fewest processes first: 2 on one agent, 1 on the other; the nearer site (yonsei-b) gets the extra one.
        assertThat(children.agents()).extracting(AgentInfo::agent).containsExactly("near", "near", "far");
        assertThat(children.grid().sites()).extracting(site -> site.name() + "=" + site.processCount())
                .containsExactly("yonsei-b=2", "kisti-b=1");
        Await.until(() -> near.info().load() == 2 && far.info().load() == 1, () -> "agents' loads " + near.info() + far.info());
        assertThat(ChildProcesses.count(pool.label())).isEqualTo(3);

        Await.result(pool.spawner.release(children));
        Await.until(() -> ChildProcesses.count(pool.label()) == 0, () -> "released children still run");
        Await.until(() -> near.info().load() == 0, () -> "load after release " + near.info());
    }

    @Test
    void aWarmPoolBindsWaitingJvmsInsteadOfStartingNewOnes() throws Exception {
        LaunchAgent agent = pool.agent("warm", "ajou-a", 2);
        Await.until(Duration.ofSeconds(60), () -> agent.warmReady() == 2, () -> "warm processes ready: " + agent.warmReady());
        List<Long> warmPids = ChildProcesses.pids(pool.label(), "-Dcanopy.warm=true");
        assertThat(warmPids).hasSize(2);

        SpawnedChildren children = Await.result(pool.spawner.spawn(pool.order("kids-warm", Programs.Stay.class, 2,
                Placement.atSites("ajou-a"), List.of())), Duration.ofSeconds(60));

        assertThat(children.members()).hasSize(2);
        // The two bound children are the JVMs that were waiting; the pool starts two replacements.
        for (long pid : warmPids) {
            assertThat(ProcessHandle.of(pid)).as("warm process %d", pid).hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());
        }
        Await.until(Duration.ofSeconds(60), () -> agent.warmReady() == 2, () -> "the pool refilled: " + agent.warmReady());
        assertThat(ChildProcesses.count(pool.label())).isEqualTo(4);
    }

    @Test
    void aWarmPoolRefillsOnlyOnceTheChildItGaveAwayHasStarted() throws Exception {
        LaunchAgent agent = pool.agent("refill", "ajou-b", 1);
        Await.until(Duration.ofSeconds(60), () -> agent.warmReady() == 1, () -> "warm processes ready: " + agent.warmReady());

        SpawnedChildren children = Await.result(pool.spawner.spawn(pool.order("kids-refill", Programs.Stay.class, 1,
                Placement.atSites("ajou-b"), List.of())), Duration.ofSeconds(60));

        // Stay never reports its start-up over: no replacement competes with it (until WarmPool.REFILL_AFTER).
        assertThat(ChildProcesses.count(pool.label())).isEqualTo(1);
        Await.result(pool.spawner.release(children));
        // The child ended: its replacement starts.
        Await.until(Duration.ofSeconds(60), () -> agent.warmReady() == 1, () -> "the pool refilled: " + agent.warmReady());
    }
}
