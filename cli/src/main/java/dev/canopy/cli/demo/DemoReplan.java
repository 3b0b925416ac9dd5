package dev.canopy.cli.demo;

import dev.canopy.cli.FutureWait;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.plan.LevelChoices;
import dev.canopy.collectives.run.LivePlanSettings;
import dev.canopy.collectives.run.LivePlans;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.topology.internal.tree.LogGpParameters;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The demo's live re-plan: every node probes the network and takes part in the plan leader election (live
 * plans, as {@code canopy launch --live-plans}); the demo then slows down the WAN link that the broadcast from
 * rank 0 crosses first, and at every switch point all members adopt the leader's newest plan, so the new trees
 * carry the next collectives. Blocking; runs on the demo's thread.
 */
final class DemoReplan implements AutoCloseable {

    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(120);

    private final List<LivePlans> plans;
    private final PrintWriter out;

    private DemoReplan(List<LivePlans> plans, PrintWriter out) {
        this.plans = plans;
        this.out = out;
    }

    /** Starts live plans on every node; {@code worlds} is every node's WORLD by rank. */
    static DemoReplan start(Vertx vertx, List<CanopyNode> nodes, List<Communicator> worlds, GridModel grid, JobSecret secret,
            PrintWriter out) {
        List<Future<LivePlans>> starting = new ArrayList<>();
        for (Communicator world : worlds) {
            CanopyNode node = nodes.stream().filter(n -> n.id().equals(world.member(world.rank()).id())).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no node for rank " + world.rank()));
            starting.add(LivePlans.start(vertx, node, world, grid, secret, LevelChoices.of(grid.levels()), LogGpParameters.DEFAULTS,
                    LivePlanSettings.DEFAULTS));
        }
        List<LivePlans> started = new ArrayList<>();
        for (Future<LivePlans> live : starting) {
            started.add(await(live, "start live plans"));
        }
        out.println("live plans: every node probes its links; the plan leader publishes plans from the forecasts");
        out.flush();
        return new DemoReplan(started, out);
    }

    /** Slows down the first WAN link of rank 0's tree on the level file's plan (see {@link WanSlowdown}); says which. */
    Optional<String> degrade(WanEmulator wan, GridModel grid, List<Communicator> worlds) {
        Communicator world = worlds.get(0);
        Optional<String> link = WanSlowdown.degradeFirstLink(wan, ConfiguredPlans.of(world.members(), grid).tree(0), world);
        link.ifPresent(slowed -> {
            out.println("degraded WAN link " + slowed + "; the plan leader re-plans once the probes have seen it");
            out.flush();
        });
        return link;
    }

    /**
     * The switch point: every member adopts the newest epoch any of them knows, in its place in {@code members} (by
     * rank; the adopted collectives keep their observer and sequence); returns the epoch.
     */
    long adoptNewest(List<Collectives> members) {
        List<Future<Collectives>> adopting = new ArrayList<>();
        for (int rank = 0; rank < members.size(); rank++) {
            adopting.add(plans.get(rank).planSwitch().adoptNewest(members.get(rank)));
        }
        long epoch = 0;
        for (int rank = 0; rank < members.size(); rank++) {
            Collectives adopted = await(adopting.get(rank), "adopt the newest plan");
            members.set(rank, adopted);
            epoch = adopted.plan().epoch();
        }
        return epoch;
    }

    @Override
    public void close() {
        for (LivePlans live : plans) {
            await(live.close(), "stop live plans");
        }
    }

    private static <T> T await(Future<T> future, String step) {
        return FutureWait.await(future, STEP_TIMEOUT, "demo step '" + step + "'");
    }
}
