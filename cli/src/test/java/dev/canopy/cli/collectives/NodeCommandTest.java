package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyMain;
import dev.canopy.core.membership.EmbeddedZooKeeper;
import dev.canopy.gridconfig.GridConfigs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code canopy node}, once per process of the two-site grid, against one ZooKeeper: the processes meet and run. */
class NodeCommandTest {

    @TempDir
    Path directory;

    @Test
    void oneNodeCommandPerProcessFormsTheJobAndRunsTheProgram() throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        ExecutorService processes = Executors.newFixedThreadPool(4);
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start()) {
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int process = 0; process < 4; process++) {
                String index = Integer.toString(process);
                statuses.add(processes.submit(() -> CanopyMain.run("node", "--config", config.toString(), "--process", index,
                        "--zk", zooKeeper.connectString(), "--job", "node-test", "--class", AllreduceProgram.class.getName())));
            }
            for (Future<Integer> status : statuses) {
                assertThat(status.get(120, TimeUnit.SECONDS)).isZero();
            }
        } finally {
            processes.shutdownNow();
        }
    }

    @Test
    void aProcessIndexOutsideTheFileIsBadInput() throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        assertThat(CanopyMain.run("node", "--config", config.toString(), "--process", "9", "--zk", "127.0.0.1:1",
                "--job", "j", "--class", AllreduceProgram.class.getName())).isEqualTo(2);
    }
}
