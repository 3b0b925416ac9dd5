package dev.canopy.examples;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.dynamic.BlockingInterCommunicator;
import dev.canopy.dynamic.DynamicOptions;
import dev.canopy.dynamic.DynamicProcesses;
import dev.canopy.dynamic.InterCommunicator;
import dev.canopy.dynamic.spawn.DynamicSpawn;
import dev.canopy.dynamic.spawn.LocalAgents;
import dev.canopy.dynamic.spawn.Parent;
import dev.canopy.dynamic.spawn.SpawnSettings;
import dev.canopy.gridconfig.model.Site;
import dev.canopy.processes.Placement;
import java.util.List;
import java.util.stream.LongStream;

/**
 * A job that grows while it runs: the launched ranks spawn {@value #WORKERS} workers at the grid's last site (the
 * remote one, for a job whose rank 0 is at the first), send them a range of numbers with an inter-communicator
 * bcast, and collect the workers' partial sums with an inter-communicator reduce. The workers are this same class:
 * a spawned process finds its parents with {@link Parent}. Rank 0 starts one local agent per site of the grid, so
 * the example needs no {@code canopy agent}; on a real grid, run {@code canopy agent} on the hosts instead.
 *
 * <pre>
 * ./canopy launch --config examples/grids/two-site.rsl --class dev.canopy.examples.SpawnWorkersExample \
 *     --classpath examples/target/classes
 * </pre>
 */
public final class SpawnWorkersExample implements CanopyProgram {

    private static final int WORKERS = 4;
    private static final long PER_WORKER = 1_000_000;

    @Override
    public void run(CanopySession session) {
        if (Parent.spawned()) {
            work(session);
            return;
        }
        DynamicOptions options = DynamicOptions.fromEnvironment(System.getenv());
        List<Site> sites = session.grid().sites();
        String remote = sites.get(sites.size() - 1).name();
        String pool = "example-" + ProcessHandle.current().pid();
        try (DynamicProcesses dynamic = DynamicProcesses.of(session, options);
                LocalAgents agents = session.rank() == 0 ? LocalAgents.start(session.grid(), options, pool, 0) : null;
                DynamicSpawn spawn = DynamicSpawn.over(session.collectives(), session.grid(), dynamic,
                        SpawnSettings.fromEnvironment(System.getenv()).withPool(pool))) {
            InterCommunicator workers = Blocking.await(spawn.spawn(SpawnWorkersExample.class.getName(), List.of(), WORKERS,
                    Placement.atSites(remote), 0));
            BlockingInterCommunicator<long[]> longs = workers.blocking(ArrayType.LONGS);
            int root = session.rank() == 0 ? InterCommunicator.ROOT : InterCommunicator.PROC_NULL;
            longs.bcast(new long[] {PER_WORKER}, root);
            longs.reduce(new long[0], BuiltInOp.SUM, root).ifPresent(total -> {
                long n = PER_WORKER * workers.remoteSize();
                System.out.println("rank 0 at " + sites.get(0).name() + ": " + workers.remoteSize() + " workers spawned at "
                        + remote + " summed 1.." + n + " = " + total[0]
                        + (total[0] == n * (n + 1) / 2 ? " (correct)" : " (WRONG, expected " + n * (n + 1) / 2 + ")"));
            });
            Blocking.await(workers.disconnect());
        }
    }

    /** A worker: its slice of 1..n, where each worker takes the range's next {@code perWorker} numbers. */
    private static void work(CanopySession session) {
        InterCommunicator parents = Blocking.await(Parent.connect(session));
        BlockingInterCommunicator<long[]> longs = parents.blocking(ArrayType.LONGS);
        long perWorker = longs.bcast(null, 0)[0];
        long first = session.rank() * perWorker + 1;
        long partial = LongStream.rangeClosed(first, first + perWorker - 1).sum();
        System.out.println("worker " + session.rank() + " at " + session.grid().sites().get(0).name() + " summed "
                + first + ".." + (first + perWorker - 1));
        longs.reduce(new long[] {partial}, BuiltInOp.SUM, 0);
        Blocking.await(parents.disconnect());
    }
}
