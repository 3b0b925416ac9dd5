package dev.canopy.cli.demo;

import dev.canopy.cli.LevelFiles;
import dev.canopy.core.node.JobId;
import dev.canopy.gridconfig.model.GridModel;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code canopy demo}: an embedded ZooKeeper and an emulated multi-site grid of nodes on this machine. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Start ZooKeeper (embedded unless --zk is given) and one node per process of a level file on",
            "loopback, with the file's WAN emulated between its sites (default: the bundled 8-site MPICH-GX",
            "grid); they join one job, agree on ranks and ping each other. Prints the rank table and the",
            "configured and measured round trips between sites, serves the job's web dashboard (its URL is",
            "printed as 'dashboard: http://127.0.0.1:PORT/') with a few recorded collectives and their skew",
            "reports, races bcast by the flat, binomial and HLOT heavy-WAN trees (and by multicast when the level",
            "file asks for it), slows one WAN link down and shows the live re-plan (the re-plan event, the new",
            "tree and the bcast timings before and after), then shuts everything down (--duration keeps it",
            "running for the browser; from 40 s on the probes and the plan leader re-plan by themselves).",
            "--quick is the short run: join, rank table, ping matrix and the dashboard's recorded collectives",
            "only; no tree race, no multicast race, no re-plan, no keep-alive (it cannot be combined with",
            "--duration)."
        })
public final class DemoCommand implements Callable<Integer> {

    private static final int MAX_NODES = 256;
    private static final int MAX_PINGS = 1000;

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "the level file (default: the bundled 8-site grid, examples/grids/mpich-gx-8site.rsl)")
    private Path config;

    @Option(names = "--zk", paramLabel = "host:port,...", description = "an existing ZooKeeper ensemble instead of the embedded server")
    private String zooKeeper;

    @Option(names = "--job", description = "the job name (default: demo-<time>, so runs on a shared ensemble never meet)")
    private String job;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the WAN emulation's jitter and loss (default ${DEFAULT-VALUE})")
    private long seed;

    @Option(names = "--pings", defaultValue = "3", description = "pings per ordered pair; the median is shown (default ${DEFAULT-VALUE})")
    private int pings;

    @Option(names = "--quick",
            description = "the short run: no tree race, no multicast race, no re-plan, no keep-alive")
    private boolean quick;

    @picocli.CommandLine.Mixin
    private DemoDashboardOptions dashboard;

    @Override
    public Integer call() throws InterruptedException {
        if (pings < 1 || pings > MAX_PINGS) {
            return badInput("--pings " + pings + " is out of range; give 1 to " + MAX_PINGS);
        }
        if (zooKeeper != null && zooKeeper.isBlank()) {
            return badInput("--zk is empty; give host:port[,host:port...] or leave it out for an embedded ZooKeeper");
        }
        JobId jobId;
        try {
            jobId = JobId.of(job == null ? "demo-" + System.currentTimeMillis() : job);
        } catch (IllegalArgumentException e) {
            return badInput("--job: " + e.getMessage());
        }
        Optional<GridModel> grid = LevelFiles.load(config, "demo", spec.commandLine().getErr());
        if (grid.isEmpty()) {
            return 2;
        }
        if (grid.get().processCount() > MAX_NODES) {
            return badInput(config + " has " + grid.get().processCount() + " processes; the demo runs at most " + MAX_NODES
                    + " in one JVM (use canopy launch for larger grids)");
        }
        DemoRun.Dashboard served;
        try {
            served = new DemoRun.Dashboard(grid.get(), dashboard.dashboard(), dashboard.duration());
        } catch (IllegalArgumentException e) {
            return badInput(e.getMessage());
        }
        if (quick && !served.duration().isZero()) {
            return badInput("--quick and --duration exclude each other; leave out --quick to keep the demo running");
        }
        new DemoRun(DemoGrid.of(grid.get()), spec.commandLine().getOut(), quick)
                .run(jobId, Optional.ofNullable(zooKeeper), pings, seed, served);
        return 0;
    }

    private int badInput(String message) {
        spec.commandLine().getErr().println("canopy demo: " + message);
        return 2;
    }
}
