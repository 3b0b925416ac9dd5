package dev.canopy.collectives.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.grid.LocalGrid;
import dev.canopy.collectives.plan.TopologyPlan;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.membership.ZnodeSeal;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

/**
 * Plan znodes are sealed under the job secret: an insider with the job's ZooKeeper identity (a member's own client,
 * so the job ACL lets it write) but without the secret cannot make members adopt its plan, nor can a plan sealed
 * for another job be replayed into this one. Members at the switch point keep their plan, count and log the
 * rejection, and go on to the next plan the job's leader seals.
 */
class ForgedPlanTest {

    private static final int SIZE = 3;
    private static final String FENCE = "/plans/leader/fence";

    @Test
    void membersKeepTheirPlanOverAForgedOrReplayedEpochAndAdoptTheNextSealedOne() throws Exception {
        try (LocalGrid grid = LocalGrid.start("forged-plan", SIZE)) {
            List<PlanCache> caches = new ArrayList<>();
            try {
                keepTheirPlans(grid, caches);
            } finally {
                caches.forEach(PlanCache::close);
            }
        }
    }

    private static void keepTheirPlans(LocalGrid grid, List<PlanCache> caches) throws Exception {
        List<Communicator> world = grid.world();
        CanopyNode insider = grid.nodeOfRank(0);
        JobId job = insider.job();
        List<String> names = world.get(0).members().stream().map(TopologyPlan::nameOf).toList();
        List<PlanSwitch> switches = new ArrayList<>();
        List<Collectives> members = new ArrayList<>();
        for (Communicator member : world) {
            CuratorFramework client = grid.nodeOfRank(member.rank()).zooKeeper();
            PlanCache cache = new PlanCache(member.context(), client, job,
                    new PlanStore(member.context(), client, job, grid.secret()), 4);
            cache.start();
            caches.add(cache);
            switches.add(new PlanSwitch(cache, LeaderGrid.PLANNER));
            members.add(new Collectives(member, new TopologyPlan(member.members(), LeaderGrid.PLANNER,
                    snapshot(names, 10), 1_000_000), CollectiveSettings.defaults()));
        }
        PlanStore leader = new PlanStore(world.get(0).context(), insider.zooKeeper(), job, grid.secret());
        Await.result(leader.ensureCreated());
        PlanStore.namespaced(insider.zooKeeper(), job).create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                .forPath(FENCE);
        Await.result(leader.publish(new PublishedPlan(1, snapshot(names, 10), 20, "first"), FENCE));
        members = adoptEverywhere(caches, switches, members, 1);
        assertThat(members).allSatisfy(m -> assertThat(m.plan().epoch()).isEqualTo(1));

        // Sealed with another secret, written with the job's own ZooKeeper identity.
        PlanStore forger = new PlanStore(world.get(0).context(), insider.zooKeeper(), job, JobSecret.generate());
        writeAsInsider(insider, job, 2, forger.sealed(fullPath(job, 2), new PublishedPlan(2, snapshot(names, 100), 20,
                "forged")));
        members = adoptEverywhere(caches, switches, members, 2);
        assertThat(members).allSatisfy(m -> assertThat(m.plan().epoch()).as("the plan kept over a forgery").isEqualTo(1));
        assertThat(switches).allSatisfy(s -> assertThat(s.rejectedPlans()).isEqualTo(1));
        assertThat(Await.failure(leader.read(2))).isInstanceOf(UntrustedPlanException.class)
                .hasMessageContaining("plans/epoch-0000000002 is not trusted: its MAC is wrong");

        // Sealed with this job's secret, but for another job's znode: replayed here, its MAC does not fit the path.
        JobId other = JobId.of("other-job");
        writeAsInsider(insider, job, 3, leader.sealed(fullPath(other, 3), new PublishedPlan(3, snapshot(names, 100), 20,
                "another job's plan")));
        members = adoptEverywhere(caches, switches, members, 3);
        assertThat(members).allSatisfy(m -> assertThat(m.plan().epoch()).as("the plan kept over a replay").isEqualTo(1));
        assertThat(switches).allSatisfy(s -> assertThat(s.rejectedPlans()).isEqualTo(2));

        // Unsealed (a plan as written before plans were sealed).
        writeAsInsider(insider, job, 4, PlanCodec.encode(new PublishedPlan(4, snapshot(names, 100), 20, "unsealed")));
        assertThat(Await.failure(leader.read(4))).isInstanceOf(UntrustedPlanException.class)
                .hasMessageContaining("it is not a sealed plan");

        // The next plan the job's leader seals is adopted, and collectives run on it.
        Await.result(leader.publish(new PublishedPlan(5, snapshot(names, 100), 40, "sealed again"), FENCE));
        members = adoptEverywhere(caches, switches, members, 5);
        assertThat(members).allSatisfy(m -> assertThat(m.plan().epoch()).isEqualTo(5));
        List<Future<Buffer>> received = members.stream()
                .map(m -> m.bcast(m.rank() == 0 ? Buffer.buffer("epoch 5") : null, 0)).toList();
        assertThat(received).allSatisfy(bcast -> assertThat(Await.result(bcast).toString()).isEqualTo("epoch 5"));
    }

    /** Once every member's cache saw {@code epoch} as current, every member's switch point. */
    private static List<Collectives> adoptEverywhere(List<PlanCache> caches, List<PlanSwitch> switches,
            List<Collectives> members, long epoch) {
        Await.until(() -> caches.stream().allMatch(cache -> cache.latestEpoch() == epoch), () -> "every member sees epoch " + epoch);
        List<Future<Collectives>> switching = new ArrayList<>();
        for (int rank = 0; rank < members.size(); rank++) {
            switching.add(switches.get(rank).adoptNewest(members.get(rank)));
        }
        return switching.stream().map(Await::result).toList();
    }

    /** Creates the epoch's znode and moves {@code current} to it, as a publication would, with {@code content}. */
    private static void writeAsInsider(CanopyNode insider, JobId job, long epoch, byte[] content) throws Exception {
        CuratorFramework client = PlanStore.namespaced(insider.zooKeeper(), job);
        client.create().forPath(PlanStore.epochPath(epoch), content);
        client.setData().forPath(PlanStore.CURRENT, PlanStore.encodeEpoch(epoch));
    }

    private static String fullPath(JobId job, long epoch) {
        return "/canopy/jobs/" + job.name() + PlanStore.epochPath(epoch);
    }

    /** 1 ms inside a wan group, 10 ms between groups, {@code w0w1Ms} between wan groups w0 and w1. */
    private static LatencySnapshot snapshot(List<String> names, double w0w1Ms) {
        return LatencySnapshot.of(names, (from, to) -> {
            int a = Integer.parseInt(from.substring(1)) % 3;
            int b = Integer.parseInt(to.substring(1)) % 3;
            if (a == b) {
                return 1;
            }
            return a + b == 1 ? w0w1Ms : 10;
        });
    }
}
