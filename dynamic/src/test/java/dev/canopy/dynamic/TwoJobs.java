package dev.canopy.dynamic;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.run.GridEmulation;
import dev.canopy.core.internal.emulation.GridWanEmulation;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.HeartbeatSettings;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Two separately joined jobs in this JVM (a server job and a client job, each with its own job name,
 * membership and job secret; one embedded ZooKeeper; one name-service secret, which only the name service and the
 * ports' keys use, as two users' jobs that should not join each other), their processes placed at processes of one level file, the
 * file's WAN emulated between sites when asked. Each process has its collectives and its dynamic processes;
 * {@link #connect} makes an inter-communicator between the two jobs by service name.
 */
final class TwoJobs implements AutoCloseable {

    /** As the collectives' loopback fixture: long heartbeat timeouts on a machine shared with other builds. */
    static final HeartbeatSettings LOADED_MACHINE = new HeartbeatSettings(Duration.ofSeconds(1),
            Duration.ofSeconds(30), HeartbeatSettings.DEFAULT_JITTER);
    private static final AtomicLong JOBS = new AtomicLong();

    /** One process of one of the jobs. */
    record Process(int index, CanopyNode node, Collectives collectives, DynamicProcesses dynamic) {
        int rank() {
            return collectives.rank();
        }
    }

    final GridModel grid;
    final EmbeddedZooKeeper zooKeeper;
    final Optional<WanEmulator> emulator;
    final Vertx vertx;
    /** The name-service secret, which both jobs share (their job secrets differ). */
    final JobSecret namesSecret;
    final JobSecret serverSecret = JobSecret.generate();
    final JobSecret clientSecret = JobSecret.generate();
    final String namespace;
    final List<Process> server;
    final List<Process> client;
    final JobId clientJob = JobId.of("client-" + JOBS.incrementAndGet());

    private TwoJobs(GridModel grid, EmbeddedZooKeeper zooKeeper, Optional<WanEmulator> emulator, Vertx vertx,
            JobSecret namesSecret, String namespace, List<Process> server, List<Process> client) {
        this.grid = grid;
        this.zooKeeper = zooKeeper;
        this.emulator = emulator;
        this.vertx = vertx;
        this.namesSecret = namesSecret;
        this.namespace = namespace;
        this.server = server;
        this.client = client;
    }

    static GridModel fourSites() {
        return grid("four-site.rsl");
    }

    /** The level file {@code name} of the test resources. */
    static GridModel grid(String name) {
        try (InputStream in = TwoJobs.class.getResourceAsStream("/" + name)) {
            return GridConfigs.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), name).orElseThrow();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The server job at the file's processes {@code serverAt}, the client job at {@code clientAt}. */
    static TwoJobs start(GridModel grid, int[] serverAt, int[] clientAt, boolean emulateWan, InterPhase phase) {
        return start(grid, serverAt, clientAt, clientAt.length, emulateWan, phase, jobs -> { });
    }

    /**
     * As {@link #start(GridModel, int[], int[], boolean, InterPhase)}, with a client job of {@code clientJobSize}
     * processes of which only those at {@code clientAt} run here: {@code beforeClients} starts the others (another
     * JVM, say) once the server job has joined.
     */
    static TwoJobs start(GridModel grid, int[] serverAt, int[] clientAt, int clientJobSize, boolean emulateWan,
            InterPhase phase, Consumer<TwoJobs> beforeClients) {
        return start(grid, serverAt, clientAt, clientJobSize, emulateWan, phase, beforeClients, index -> "127.0.0.1");
    }

    /** As {@link #start(GridModel, int[], int[], boolean, InterPhase)}, each process's job transport on {@code hostOf(index)}. */
    static TwoJobs start(GridModel grid, int[] serverAt, int[] clientAt, IntFunction<String> hostOf) {
        return start(grid, serverAt, clientAt, clientAt.length, false, InterPhase.FLAT, jobs -> { }, hostOf);
    }

    private static TwoJobs start(GridModel grid, int[] serverAt, int[] clientAt, int clientJobSize, boolean emulateWan,
            InterPhase phase, Consumer<TwoJobs> beforeClients, IntFunction<String> hostOf) {
        EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
        Optional<WanEmulator> emulator = emulateWan ? Optional.of(WanEmulator.start(GridWanEmulation.of(grid)))
                : Optional.empty();
        // A low limit, with stack traces, so that blocking an event loop shows up in the log.
        Vertx vertx = CanopyVertx.create(new VertxOptions().setMaxEventLoopExecuteTime(300)
                .setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS).setWarningExceptionTime(300)
                .setWarningExceptionTimeUnit(TimeUnit.MILLISECONDS));
        JobSecret namesSecret = JobSecret.generate();
        String namespace = "test-" + JOBS.incrementAndGet();
        List<Process> server = new ArrayList<>();
        List<Process> client = new ArrayList<>();
        TwoJobs jobs = new TwoJobs(grid, zooKeeper, emulator, vertx, namesSecret, namespace, server, client);
        try {
            List<Future<Process>> serverJoin = jobs.join(JobId.of("server-" + JOBS.incrementAndGet()), serverAt,
                    serverAt.length, phase, jobs.serverSecret, hostOf);
            serverJoin.forEach(process -> server.add(Await.result(process, Duration.ofSeconds(60))));
            server.sort(Comparator.comparingInt(Process::rank));
            List<Future<Process>> clientJoin = jobs.join(jobs.clientJob, clientAt, clientJobSize, phase, jobs.clientSecret,
                    hostOf);
            beforeClients.accept(jobs);
            clientJoin.forEach(process -> client.add(Await.result(process, Duration.ofSeconds(90))));
            client.sort(Comparator.comparingInt(Process::rank));
            return jobs;
        } catch (RuntimeException | AssertionError e) {
            jobs.close();
            throw e;
        }
    }

    DynamicOptions options(int index, InterPhase phase) {
        return DynamicOptions.of(zooKeeper.connectString(), namesSecret).withNamespace(namespace).withHeartbeat(LOADED_MACHINE)
                .withLayers(layers(index)).withInterPhase(phase);
    }

    private TransportStack layers(int index) {
        return emulator.map(wan -> GridEmulation.layers(wan, grid.processes().get(index).coordinates(), index))
                .orElse(TransportStack.none());
    }

    private List<Future<Process>> join(JobId id, int[] at, int size, InterPhase phase, JobSecret secret,
            IntFunction<String> hostOf) {
        List<Future<Process>> joined = new ArrayList<>();
        for (int index : at) {
            NodeOptions options = NodeOptions.of(id, NodeId.of("p" + index), grid.processes().get(index).coordinates(),
                    size, zooKeeper.connectString(), secret).withHeartbeat(LOADED_MACHINE).withLayers(layers(index))
                    .withTransport(TransportOptions.defaults().withHost(hostOf.apply(index)));
            joined.add(CanopyNode.start(vertx, options).compose(node -> node.join().map(world -> {
                Collectives collectives = new Collectives(world, ConfiguredPlans.of(world.members(), grid),
                        CollectiveSettings.defaults());
                return new Process(index, node, collectives, DynamicProcesses.over(collectives, grid, options(index, phase)));
            })));
        }
        return joined;
    }

    /**
     * Server rank 0 opens a port and publishes it as {@code service}, client rank 0 looks it up; every process of
     * both jobs then accepts or connects. Returns the inter-communicators, server's then client's, by rank.
     */
    Pair connect(String service) {
        return connect(service, Process::dynamic);
    }

    /** As {@link #connect(String)}, each process through {@code dynamics.apply(process)}. */
    Pair connect(String service, Function<Process, DynamicProcesses> dynamics) {
        List<Future<InterCommunicator>> accepting = accept(publish(service, dynamics), dynamics);
        List<Future<InterCommunicator>> connecting = connectHere(service, dynamics);
        List<InterCommunicator> servers = accepting.stream().map(f -> Await.result(f, Duration.ofSeconds(90))).toList();
        List<InterCommunicator> clients = connecting.stream().map(f -> Await.result(f, Duration.ofSeconds(90))).toList();
        return new Pair(servers, clients);
    }

    /** Server rank 0 opens a port and publishes it as {@code service}. */
    PortName publish(String service) {
        return publish(service, Process::dynamic);
    }

    private PortName publish(String service, Function<Process, DynamicProcesses> dynamics) {
        DynamicProcesses serverRoot = dynamics.apply(server.get(0));
        PortName port = Await.result(serverRoot.openPort());
        Await.result(serverRoot.publishName(service, port));
        return port;
    }

    /** Every server process accepts on {@code port}. */
    List<Future<InterCommunicator>> accept(PortName port) {
        return accept(port, Process::dynamic);
    }

    private List<Future<InterCommunicator>> accept(PortName port, Function<Process, DynamicProcesses> dynamics) {
        List<Future<InterCommunicator>> accepting = new ArrayList<>();
        for (Process process : server) {
            accepting.add(dynamics.apply(process).accept(process.rank() == 0 ? port : null, 0));
        }
        return accepting;
    }

    /** Every client process of this JVM connects to {@code service} (client rank 0 looks it up, wherever it runs). */
    List<Future<InterCommunicator>> connectHere(String service) {
        return connectHere(service, Process::dynamic);
    }

    private List<Future<InterCommunicator>> connectHere(String service,
            Function<Process, DynamicProcesses> dynamics) {
        List<Future<InterCommunicator>> connecting = new ArrayList<>();
        for (Process process : client) {
            DynamicProcesses dynamic = dynamics.apply(process);
            PortName found = process.rank() == 0 ? Await.result(dynamic.lookupName(service)) : null;
            connecting.add(dynamic.connect(found, 0));
        }
        return connecting;
    }

    record Pair(List<InterCommunicator> server, List<InterCommunicator> client) {
        List<InterCommunicator> all() {
            List<InterCommunicator> all = new ArrayList<>(server);
            all.addAll(client);
            return all;
        }

        void disconnect() {
            all().stream().map(InterCommunicator::disconnect).toList()
                    .forEach(done -> Await.result(done, Duration.ofSeconds(30)));
        }
    }

    @Override
    public void close() {
        for (List<Process> job : List.of(server, client)) {
            for (Process process : job) {
                process.dynamic().close();
                Blocking.await(process.node().close().otherwiseEmpty());
            }
        }
        Blocking.await(vertx.close().otherwiseEmpty());
        emulator.ifPresent(WanEmulator::close);
        zooKeeper.close();
    }
}
