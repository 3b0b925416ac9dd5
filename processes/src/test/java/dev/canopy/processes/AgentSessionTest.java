package dev.canopy.processes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.testing.Await;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** An agent whose ZooKeeper session expires registers again and keeps serving spawns. */
class AgentSessionTest {

    @AutoClose
    private final AgentPool pool = AgentPool.start();

    @Test
    void anExpiredSessionIsFollowedByANewRegistration() throws Exception {
        LaunchAgent agent = pool.agent("phoenix", "kut-b", 0);
        AgentZnodes znodes = new AgentZnodes(pool.pool);
        long before = pool.client.checkExists().forPath(znodes.host("phoenix")).getEphemeralOwner();

        agent.client().getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();

        Await.until(Duration.ofSeconds(60), () -> {
            try {
                org.apache.zookeeper.data.Stat stat = pool.client.checkExists().forPath(znodes.host("phoenix"));
                return stat != null && stat.getEphemeralOwner() != before;
            } catch (Exception e) {
                return false;
            }
        }, () -> "the agent did not register again with its new session");
        SpawnedChildren children = Await.result(pool.spawner.spawn(pool.order("kids-after-expiry", Programs.Stay.class, 1,
                Placement.automatic(), List.of())), Duration.ofSeconds(90));
        assertThat(children.agents()).extracting(AgentInfo::agent).containsExactly("phoenix");
    }
}
