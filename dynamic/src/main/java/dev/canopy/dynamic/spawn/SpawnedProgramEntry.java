package dev.canopy.dynamic.spawn;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.run.Canopy;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.collectives.run.FatalErrors;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.collectives.run.LeaveOnShutdown;
import dev.canopy.collectives.run.ProgramMain;
import dev.canopy.core.internal.membership.ZooKeeperSession;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.dynamic.StepLog;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.processes.ChildBinding;
import dev.canopy.processes.ChildEntry;
import dev.canopy.processes.ChildMain;
import dev.canopy.processes.ChildStarter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry of every spawned Canopy process: runs the bound program exactly as {@code canopy launch} runs a rank
 * ({@link ProgramMain}: a {@code CanopyProgram} joins its job, a class with {@code main} joins by itself), with the
 * options {@code canopy launch} would pass in the environment (job, process, level file, ZooKeeper, secret file,
 * WAN emulation) taken from the binding. Warming up loads the classes every program needs.
 *
 * <p>A spawned program must be a {@code CanopyProgram}: a class with {@code main} joins from its environment,
 * which a warm JVM cannot be given. The binding's system properties tell {@link Parent} where the parents wait.
 */
public final class SpawnedProgramEntry implements ChildEntry {

    /** Initialised while warm: the runtime's heavy classes (Vert.x, ZooKeeper, Curator, the collectives). */
    private static final Logger LOG = LoggerFactory.getLogger(SpawnedProgramEntry.class);

    private static final List<String> WARM_CLASSES = List.of("dev.canopy.collectives.run.Canopy",
            "dev.canopy.collectives.Collectives", "dev.canopy.core.node.CanopyNode",
            "org.apache.curator.framework.CuratorFrameworkFactory", "org.apache.zookeeper.ZooKeeper");

    /**
     * The Vert.x instance the program's session runs on, made while warm (its event loops and thread pools are
     * ready before the binding arrives); the session closes it.
     */
    private Vertx vertx;
    /** A warm JVM's ZooKeeper session, opened without credentials before it is bound; empty for a cold child. */
    private Optional<AheadSession> ahead = Optional.empty();

    @Override
    public void warmUp() {
        FatalErrors.install();
        for (String name : WARM_CLASSES) {
            try {
                Class.forName(name, true, SpawnedProgramEntry.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("Canopy's own class " + name + " is missing from the class path", e);
            }
        }
        GridConfigs.defaultGrid();
        vertx = CanopyVertx.create();
        if (Boolean.getBoolean(ChildStarter.WARM_PROPERTY)) {
            rehearse();
            ahead = AheadSession.connect(vertx);
        }
    }

    /**
     * A warm JVM waits for its binding with the whole way to its parents behind it once ({@link WarmRehearsal}):
     * without that, a warm spawn spent most of its time loading and initialising classes on the critical path.
     * A cold child skips it: it is bound at once, and the rehearsal would only delay it.
     */
    private static void rehearse() {
        long started = System.nanoTime();
        try {
            WarmRehearsal.run();
            LOG.debug("warm rehearsal done in {} ms", (System.nanoTime() - started) / 1_000_000);
        } catch (RuntimeException | NoClassDefFoundError e) {
            // Still a usable process, only a slower one to start: say so and wait for the binding. (Without
            // canopy-zookeeper-server on the class path, a library's own warm JVMs have no server to rehearse with.)
            LOG.warn("the warm rehearsal failed ({}); this process waits for its binding without it, and its spawn"
                    + " will be slower", e.toString());
        }
    }

    /**
     * Joins over the session opened ahead when it reaches the binding's ensemble as the job would, else as usual. At
     * debug, one line says when the binding arrived and when the join was done ({@code CANOPY_SPAWN_LOG=DEBUG}), to
     * line up with the pairing's lines of parents and children.
     */
    private Future<CanopySession> join(JoinOptions options, StepLog steps) {
        steps.mark("options read");
        Optional<ZooKeeperSession> usable = ahead.flatMap(session -> session.takeFor(options.nodeOptions()));
        steps.mark(usable.isPresent() ? "session taken" : "no session ahead");
        return usable.map(session -> Canopy.joinConnected(vertx, options, session))
                .orElseGet(() -> Canopy.joinAsync(vertx, options))
                .onSuccess(session -> {
                    steps.mark("joined");
                    LOG.debug("process {} of {} bound {}", options.nodeOptions().id(), options.nodeOptions().job(), steps);
                });
    }

    @Override
    public int run(ChildBinding binding) {
        StepLog steps = new StepLog();
        try {
            Class<?> program = Class.forName(binding.program(), false, SpawnedProgramEntry.class.getClassLoader());
            if (!CanopyProgram.class.isAssignableFrom(program)) {
                System.err.println("spawned program " + binding.program() + " is not a " + CanopyProgram.class.getName()
                        + ": a spawned process runs a CanopyProgram (a class with main cannot be given its job in a warm JVM)");
                return ChildMain.CANNOT_RUN;
            }
        } catch (ClassNotFoundException e) {
            // ProgramMain says so, as canopy launch does.
        }
        System.setProperty(Parent.ZOOKEEPER_PROPERTY, binding.zooKeeper());
        System.setProperty(Parent.SECRET_FILE_PROPERTY, binding.secretFile().toString());
        FatalErrors.install();
        LeaveOnShutdown.install();
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.put(JoinOptions.ENV_JOB, binding.job().name());
        environment.put(JoinOptions.ENV_PROCESS, Integer.toString(binding.processIndex()));
        environment.put(JoinOptions.ENV_CONFIG, binding.levelFile().toString());
        environment.put(JoinOptions.ENV_ZOOKEEPER, binding.zooKeeper());
        environment.put(JoinOptions.ENV_SECRET_FILE, binding.secretFile().toString());
        environment.put(JoinOptions.ENV_EMULATE_WAN, binding.emulateWan() ? "1" : "0");
        // The children's job runs TLS when their parents' does, with the parents' files (never a TLS setting the
        // agent's own environment happens to carry): a job of Grid processes is TLS throughout or not at all.
        List.of(TlsSettings.ENV_CERTIFICATE, TlsSettings.ENV_KEY, TlsSettings.ENV_CA, TlsSettings.ENV_PEER_NAME)
                .forEach(environment::remove);
        environment.putAll(Parent.tlsEnvironment());
        // Likewise ZooKeeper: the children reach the parents' ensemble as the parents do (TLS or not).
        environment.remove(JoinOptions.ENV_ZOOKEEPER_TLS);
        Parent.zooKeeperTlsDirectory().ifPresent(directory -> environment.put(JoinOptions.ENV_ZOOKEEPER_TLS, directory));
        return ProgramMain.runJoining(binding.program(), SpawnedProgramEntry.class.getClassLoader(),
                binding.arguments().toArray(String[]::new),
                () -> Blocking.await(join(JoinOptions.fromEnvironment(environment), steps)));
    }
}
