package dev.canopy.cli.demo;

import dev.canopy.core.node.JobId;
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
            "Start ZooKeeper (embedded unless --zk is given) and several nodes on loopback, spread over",
            "four emulated sites; they join one job, agree on ranks and ping each other. Prints the",
            "rank table and the round-trip matrix, then shuts everything down."
        })
public final class DemoCommand implements Callable<Integer> {

    private static final int MAX_NODES = 64;
    private static final int MAX_PINGS = 1000;

    @Spec
    private CommandSpec spec;

    @Option(names = "--nodes", defaultValue = "8", description = "how many nodes (1 to " + MAX_NODES + "; default ${DEFAULT-VALUE})")
    private int nodes;

    @Option(names = "--zk", paramLabel = "host:port,...", description = "an existing ZooKeeper ensemble instead of the embedded server")
    private String zooKeeper;

    @Option(names = "--job", description = "the job name (default: demo-<time>, so runs on a shared ensemble never meet)")
    private String job;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the WAN emulation's jitter and loss (default ${DEFAULT-VALUE})")
    private long seed;

    @Option(names = "--pings", defaultValue = "3", description = "pings per ordered pair; the median is shown (default ${DEFAULT-VALUE})")
    private int pings;

    @Override
    public Integer call() {
        if (nodes < 1 || nodes > MAX_NODES) {
            return badInput("--nodes " + nodes + " is out of range; give 1 to " + MAX_NODES);
        }
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
        new DemoRun(DemoGrid.fourSites(nodes), spec.commandLine().getOut()).run(jobId, Optional.ofNullable(zooKeeper), pings, seed);
        return 0;
    }

    private int badInput(String message) {
        spec.commandLine().getErr().println("canopy demo: " + message);
        return 2;
    }
}
