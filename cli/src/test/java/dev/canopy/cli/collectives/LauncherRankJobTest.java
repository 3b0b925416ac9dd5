package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.collectives.NodeProcesses.NodeProcess;
import dev.canopy.core.security.JobSecret;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs whose processes learn which process of the level file they are only from their launcher's
 * environment, as under {@code mpirun} and {@code srun}: separate JVMs running {@code canopy node} without
 * {@code --process}. The grid has one process at site alpha and one at beta, so each process's site shows
 * which index it took.
 */
@Tag("multiprocess")
@Timeout(120)
class LauncherRankJobTest {

    private static final Duration DEADLINE = Duration.ofSeconds(90);

    @TempDir
    Path directory;

    /**
     * One job, two launchers: process 0 learns its rank from Open MPI's variables (and also inherits an
     * allocation's conflicting SLURM_PROCID, which must lose), process 1 only from Slurm's. Two JVMs instead of
     * four keep the default run short; the exhaustive variant below runs one job per launcher.
     */
    @Test
    void ranksFromOpenMpiAndFromSlurmVariablesPlaceEveryProcessAndTheJobRuns() throws Exception {
        runJob("launcher-ranks", List.of(
                Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2", "SLURM_PROCID", "1", "SLURM_NTASKS", "2"),
                Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2")));
    }

    @Test
    @Tag("exhaustive")
    void aJobWhoseRanksComeOnlyFromOpenMpiAndOneWhoseRanksComeOnlyFromSlurm() throws Exception {
        runJob("ompi-ranks", List.of(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2"),
                Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2")));
        runJob("slurm-ranks", List.of(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2"),
                Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2")));
    }

    /** Runs {@code canopy node} once per environment, without --process, on the alpha-beta grid; each must end well placed. */
    private void runJob(String job, List<Map<String, String>> environments) throws Exception {
        Path grid = directory.resolve("alpha-beta.rsl");
        Files.writeString(grid, "+\n( &(type = subjob) (label = \"alpha\") (count = 1) )\n"
                + "( &(type = subjob) (label = \"beta\") (count = 1) )\n");
        Path secret = directory.resolve(job + ".key");
        JobSecret.generate().writeTo(secret);
        try (TestingServer zooKeeper = new TestingServer(true)) {
            List<NodeProcess> processes = new ArrayList<>();
            try {
                for (Map<String, String> environment : environments) {
                    processes.add(NodeProcesses.start(directory, environment, arguments(grid, zooKeeper, job, secret)));
                }
                for (int index = 0; index < processes.size(); index++) {
                    NodeProcess process = processes.get(index);
                    assertThat(process.exitStatus(DEADLINE)).as(process.output()).isZero();
                    String site = index == 0 ? "alpha" : "beta";
                    assertThat(process.output()).contains("placed at " + site + "/" + site + "#" + index + ", allreduce 2 1");
                }
            } finally {
                processes.forEach(process -> process.process().destroyForcibly());
            }
        }
    }

    @Test
    void aLauncherSizeThatDisagreesWithTheLevelFileIsBadInputNamingTheVariableAndTheFile() throws Exception {
        Path grid = directory.resolve("alpha-beta.rsl");
        Files.writeString(grid, "+\n( &(type = subjob) (label = \"alpha\") (count = 2) )\n");
        Path secret = directory.resolve("job.key");
        JobSecret.generate().writeTo(secret);
        NodeProcess process = NodeProcesses.start(directory, Map.of("PMI_RANK", "0", "PMI_SIZE", "3"),
                List.of("--config", grid.toString(), "--zk", "127.0.0.1:1", "--job", "j", "--class",
                        PlacementProgram.class.getName(), "--secret-file", secret.toString()));

        assertThat(process.exitStatus(DEADLINE)).isEqualTo(2);
        assertThat(process.output()).contains("canopy node: PMI_SIZE=3 says the job has 3 processes, but the"
                + " level file " + grid + " has 2");
    }

    private static List<String> arguments(Path grid, TestingServer zooKeeper, String job, Path secret) {
        return List.of("--config", grid.toString(), "--zk", zooKeeper.getConnectString(), "--job", job,
                "--class", PlacementProgram.class.getName(), "--secret-file", secret.toString());
    }
}
