package dev.canopy.cli.bench.dynamic;

import dev.canopy.collectives.Blocking;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.dynamic.DynamicOptions;
import dev.canopy.dynamic.InterCommunicator;
import dev.canopy.dynamic.InterPhase;
import dev.canopy.dynamic.spawn.DynamicSpawn;
import dev.canopy.dynamic.spawn.LocalAgents;
import dev.canopy.dynamic.spawn.SpawnSettings;
import dev.canopy.dynamic.spawn.SpawnTimeline;
import dev.canopy.gridconfig.model.GridModel;

import dev.canopy.processes.Placement;
import dev.canopy.processes.SpawnCommand;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Spawn latency and spawn rate with real child JVMs: parents in this JVM, one local agent per site of the grid
 * (cold: every child a new JVM; warm: bound from the agents' warm pools), {@link IdleChild} as the program.
 * Latency is the time of spawn at the parent root until its inter-communicator exists (disconnect not counted);
 * between runs the benchmark waits, untimed, until the children have ended and the warm pools are full again.
 */
final class SpawnBench {

    enum Mode {
        COLD, WARM;

        String json() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * The mean latency of a shape over {@code runs} timed spawns after {@code warmUps} untimed ones, and the mean of
     * each phase at the parent root ({@link SpawnTimeline}).
     */
    record Latency(int parents, int children, Mode mode, int warmUps, int runs, double meanMs, SpawnTimeline phases) {
    }

    /** Untimed spawns per shape and mode, then timed ones, then back-to-back spawns for the rate. */
    record Counts(int warmUps, int runs, int rateSpawns) {
    }

    record Rate(Mode mode, double spawnsPerSecond) {
    }

    private static final Duration SETTLE = Duration.ofSeconds(120);

    private final GridModel grid;
    private final PrintWriter progress;

    SpawnBench(GridModel grid, PrintWriter progress) {
        this.grid = grid;
        this.progress = progress;
    }

    /**
     * Every shape {parents, children}, its untimed spawns then its timed ones, then the back-to-back spawns of the
     * rate, per mode.
     */
    void run(List<int[]> shapes, List<Mode> modes, Counts counts, List<Latency> latencies, List<Rate> rates)
            throws InterruptedException {
        int mostChildren = shapes.stream().mapToInt(shape -> shape[1]).max().orElse(1);
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start()) {
            Vertx vertx = CanopyVertx.create();
            try {
                JobSecret secret = JobSecret.generate();
                DynamicOptions options = DynamicOptions.of(zooKeeper.connectString(), secret).withNamespace("bench")
                        .withHeartbeat(JoinedGroup.PATIENT).withTimeout(Duration.ofSeconds(120));
                for (Mode mode : modes) {
                    int warm = mode == Mode.WARM ? Math.max(1, (mostChildren + grid.sites().size() - 1) / grid.sites().size()) : 0;
                    String pool = "bench-" + mode.json();
                    try (LocalAgents agents = LocalAgents.start(grid, options, pool, warm)) {
                        for (int parents : shapes.stream().mapToInt(shape -> shape[0]).distinct().toArray()) {
                            try (Parents group = new Parents(vertx, zooKeeper.connectString(), secret, parents, pool)) {
                                for (int[] shape : shapes) {
                                    if (shape[0] == parents) {
                                        latencies.add(meanSpawn(group, agents, warm, shape[1], counts));
                                    }
                                }
                                if (parents == 1) {
                                    rates.add(new Rate(mode, spawnsPerSecond(group, agents, warm, counts.rateSpawns())));
                                }
                            }
                        }
                    }
                }
            } finally {
                Blocking.await(vertx.close());
            }
        }
    }

    private Latency meanSpawn(Parents group, LocalAgents agents, int warm, int children, Counts counts)
            throws InterruptedException {
        double total = 0;
        List<SpawnTimeline> timelines = new ArrayList<>();
        // The untimed spawns first (run < 0): the parents' first run of the pairing code, the pools' first binding.
        for (int run = -counts.warmUps(); run < counts.runs(); run++) {
            settle(agents, warm);
            long started = System.nanoTime();
            List<InterCommunicator> made = group.spawn(children);
            if (run >= 0) {
                total += (System.nanoTime() - started) / 1e6;
                group.rootTimeline().ifPresent(timelines::add);
            }
            group.finish(made);
        }
        double mean = total / counts.runs();
        SpawnTimeline phases = SpawnTimeline.mean(timelines);
        progress.printf("spawn %2d parents x %2d children (%s, %d untimed first): %.0f ms; at the root: %s%n", group.size(),
                children, warm > 0 ? "warm" : "cold", counts.warmUps(), mean, phases);
        progress.flush();
        return new Latency(group.size(), children, warm > 0 ? Mode.WARM : Mode.COLD, counts.warmUps(), counts.runs(), mean,
                phases);
    }

    private double spawnsPerSecond(Parents group, LocalAgents agents, int warm, int spawns) throws InterruptedException {
        settle(agents, warm);
        long started = System.nanoTime();
        for (int spawn = 0; spawn < spawns; spawn++) {
            group.finish(group.spawn(1));
        }
        double rate = spawns / ((System.nanoTime() - started) / 1e9);
        progress.printf("spawn rate (%s): %.2f spawns/s%n", warm > 0 ? "warm" : "cold", rate);
        progress.flush();
        return rate;
    }

    /** Waits, untimed, until no child runs and every warm pool is full and warmed up. */
    private static void settle(LocalAgents agents, int warm) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (agents.agents().stream().mapToInt(agent -> agent.info().load()).sum() > 0 || !agents.warm(warm)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the children of the last spawn did not end, or the warm pools did not"
                        + " refill, within " + SETTLE.toSeconds() + " s");
            }
            TimeUnit.MILLISECONDS.sleep(20); // polling between runs, outside the timed part
        }
    }

    /** The parent group: its processes spread over the grid, each with its spawn. */
    private final class Parents implements AutoCloseable {

        private final JoinedGroup group;
        private final List<DynamicSpawn> spawns = new ArrayList<>();

        Parents(Vertx vertx, String zooKeeper, JobSecret secret, int size, String pool) {
            int[] at = new int[size];
            for (int rank = 0; rank < size; rank++) {
                at[rank] = rank * grid.processCount() / size;
            }
            group = JoinedGroup.join(vertx, grid, zooKeeper, secret, JobId.of("bench-parents-" + size + "-" + pool), at,
                    Optional.empty(), "bench", InterPhase.TOPOLOGY);
            for (JoinedGroup.Process process : group.processes()) {
                spawns.add(DynamicSpawn.over(process.collectives(), grid, process.dynamic(),
                        SpawnSettings.DEFAULTS.withPool(pool).withTimeout(Duration.ofSeconds(120))));
            }
        }

        int size() {
            return group.size();
        }

        /** Where the last spawn's time went at the root (rank 0). */
        Optional<SpawnTimeline> rootTimeline() {
            return spawns.get(0).lastTimeline();
        }

        /** Every parent spawns {@code children} idle children (root 0); returns once the root has its communicator. */
        List<InterCommunicator> spawn(int children) {
            List<SpawnCommand> commands = List.of(new SpawnCommand(IdleChild.class.getName(), List.of(), children,
                    Placement.automatic()));
            List<Future<InterCommunicator>> made = new ArrayList<>();
            for (int rank = 0; rank < spawns.size(); rank++) {
                made.add(spawns.get(rank).spawnMultiple(rank == 0 ? commands : List.of(), 0));
            }
            InterCommunicator atRoot = Blocking.await(made.get(0));
            List<InterCommunicator> all = new ArrayList<>(List.of(atRoot));
            made.subList(1, made.size()).forEach(other -> all.add(Blocking.await(other)));
            return all;
        }

        /** The children's barrier, then every parent disconnects (untimed). */
        void finish(List<InterCommunicator> made) {
            List<Future<Void>> barriers = made.stream().map(InterCommunicator::barrier).toList();
            barriers.forEach(Blocking::await);
            made.stream().map(InterCommunicator::disconnect).toList().forEach(Blocking::await);
        }

        @Override
        public void close() {
            spawns.forEach(DynamicSpawn::close);
            group.close();
        }
    }
}
