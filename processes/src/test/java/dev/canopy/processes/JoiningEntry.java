package dev.canopy.processes;

import dev.canopy.core.node.CanopyNode;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.node.NodeOptions;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;

/**
 * The child entry of this module's tests: checks the program class like the collectives' runner does, joins its
 * job as a core node (a real member: ZooKeeper, transport, start barrier), then runs the program, a
 * {@link Runnable}. With the argument {@code no-join} it never joins (a child that never connects).
 */
public final class JoiningEntry implements ChildEntry {

    @Override
    public void warmUp() {
        CanopyVertx.create().close();
    }

    @Override
    public int run(ChildBinding binding) {
        Runnable program;
        try {
            program = (Runnable) Class.forName(binding.program()).getConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            System.err.println("program class " + binding.program() + " is not on the classpath; check --classpath");
            return ChildMain.CANNOT_RUN;
        }
        if (binding.arguments().contains("no-join")) {
            program.run();
            return 0;
        }
        GridModel grid = GridConfigs.load(binding.levelFile()).orElseThrow();
        Vertx vertx = CanopyVertx.create();
        try {
            NodeOptions options = NodeOptions.of(binding.job(), NodeId.of("p" + binding.processIndex()),
                    grid.processes().get(binding.processIndex()).coordinates(), grid.processCount(), binding.zooKeeper(),
                    JobSecret.fromFile(binding.secretFile()));
            CanopyNode node = CanopyNode.start(vertx, options).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            node.join().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            System.out.println("joined " + binding.job() + " as process " + binding.processIndex());
            program.run();
            node.leave().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            return 0;
        } catch (Exception e) {
            System.err.println("child failed: " + e);
            return 1;
        } finally {
            vertx.close();
        }
    }
}
