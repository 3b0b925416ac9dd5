package dev.canopy.cli.agent;

import dev.canopy.collectives.run.FatalErrors;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.collectives.run.LeaveOnShutdown;
import dev.canopy.collectives.run.ProgramMain;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.processes.ChildBinding;
import dev.canopy.processes.ChildEntry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The entry of every spawned Canopy process: runs the bound program exactly as {@code canopy launch} runs a rank
 * ({@link ProgramMain}: a {@code CanopyProgram} joins its job, a class with {@code main} joins by itself), with the
 * options {@code canopy launch} would pass in the environment (job, process, level file, ZooKeeper, secret file,
 * WAN emulation) taken from the binding. Warming up loads the classes every program needs.
 */
public final class CanopyChildEntry implements ChildEntry {

    /** Initialised while warm: the runtime's heavy classes (Vert.x, ZooKeeper, Curator, the collectives). */
    private static final List<String> WARM_CLASSES = List.of("dev.canopy.collectives.run.Canopy",
            "dev.canopy.collectives.Collectives", "dev.canopy.core.node.CanopyNode",
            "org.apache.curator.framework.CuratorFrameworkFactory", "org.apache.zookeeper.ZooKeeper");

    @Override
    public void warmUp() {
        FatalErrors.install();
        for (String name : WARM_CLASSES) {
            try {
                Class.forName(name, true, CanopyChildEntry.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("Canopy's own class " + name + " is missing from the class path", e);
            }
        }
        GridConfigs.defaultGrid();
        CanopyVertx.create().close().toCompletionStage().toCompletableFuture().join();
    }

    @Override
    public int run(ChildBinding binding) {
        FatalErrors.install();
        LeaveOnShutdown.install();
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.put(JoinOptions.ENV_JOB, binding.job().name());
        environment.put(JoinOptions.ENV_PROCESS, Integer.toString(binding.processIndex()));
        environment.put(JoinOptions.ENV_CONFIG, binding.levelFile().toString());
        environment.put(JoinOptions.ENV_ZOOKEEPER, binding.zooKeeper());
        environment.put(JoinOptions.ENV_SECRET_FILE, binding.secretFile().toString());
        environment.put(JoinOptions.ENV_EMULATE_WAN, binding.emulateWan() ? "1" : "0");
        return ProgramMain.run(binding.program(), CanopyChildEntry.class.getClassLoader(),
                binding.arguments().toArray(String[]::new), () -> JoinOptions.fromEnvironment(environment));
    }
}
