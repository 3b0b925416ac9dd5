package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.canopy.cli.CanopyMain;
import dev.canopy.cli.collectives.NodeProcesses.NodeProcess;
import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.Canopy;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code canopy node --zk embedded --zk-file PATH}: jobs that bring their own ZooKeeper. Process 0 serves it
 * and publishes it in the file; the others read it there, as on a shared file system of a cluster.
 */
@Tag("multiprocess")
@Timeout(120)
class EmbeddedZooKeeperJobTest {

    private static final Duration DEADLINE = Duration.ofSeconds(90);

    @TempDir
    Path directory;

    private Path grid;
    private Path secret;
    private Path zkFile;

    @BeforeEach
    void files() throws Exception {
        grid = directory.resolve("alpha-beta.rsl");
        Files.writeString(grid, "+\n( &(type = subjob) (label = \"alpha\") (count = 1) )\n"
                + "( &(type = subjob) (label = \"beta\") (count = 1) )\n");
        secret = directory.resolve("job.key");
        JobSecret.generate().writeTo(secret);
        zkFile = directory.resolve("shared").resolve("zk");
        Files.createDirectories(zkFile.getParent());
    }

    /** Process 1 starts first and waits for the file; then process 0 serves. Both run the allreduce and exit 0. */
    @Test
    void separateNodeProcessesMeetThroughProcessZerosEmbeddedZooKeeperAndAllExitZero() throws Exception {
        String job = "embedded-" + System.nanoTime();
        List<NodeProcess> processes = new ArrayList<>();
        try {
            NodeProcess waiting = NodeProcesses.start(directory, Map.of(), arguments(job, 1));
            processes.add(NodeProcesses.start(directory, Map.of(), arguments(job, 0)));
            processes.add(waiting);
            for (NodeProcess process : processes) {
                assertThat(process.exitStatus(DEADLINE)).as(process.output()).isZero();
            }
            assertThat(processes.get(0).output()).contains("placed at alpha/alpha#0, allreduce 2 1");
            assertThat(processes.get(1).output()).contains("placed at beta/beta#1, allreduce 2 1");
            assertThat(zkFile).as("process 0 deletes the file when it stops its server").doesNotExist();
        } finally {
            processes.forEach(process -> process.process().destroyForcibly());
        }
    }

    /**
     * Process 0's program ends first; it must keep serving until the other member (here in the test JVM) has
     * left, and only then stop the server, delete the file and exit. The member takes part in process 0's closing
     * barrier (a session's close is one) but stays in the job until the test sees process 0 waiting for it.
     */
    @Test
    void processZeroKeepsItsZooKeeperUpUntilTheOtherMemberHasLeft() throws Exception {
        String job = "embedded-last-" + System.nanoTime();
        NodeProcess zero = NodeProcesses.start(directory, Map.of("CANOPY_LOG_LEVEL", "INFO"), arguments(job, 0));
        try {
            String connect = ZooKeeperFileWait.await(zkFile, JobId.of(job), DEADLINE);
            GridModel model = GridConfigs.load(grid).orElseThrow();
            JoinOptions options = new JoinOptions(JobId.of(job), 1, model, connect, TransportStack.none(), JobSecret.fromFile(secret));
            CanopySession member = CompletableFuture.supplyAsync(() -> Canopy.join(options)).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            try {
                long[] sums = member.blocking(ArrayType.LONGS).allreduce(new long[] {1, member.rank()}, BuiltInOp.SUM);
                assertThat(sums).containsExactly(2, 1);
                member.blocking(ArrayType.LONGS).barrier();
                zero.awaitOutput("keeping the embedded ZooKeeper up until the job's other 1 member(s) leave", DEADLINE);
                assertThat(zero.process().isAlive()).as(zero.output()).isTrue();
                assertThat(zkFile).exists();
            } finally {
                member.leave();
            }
            assertThat(zero.exitStatus(DEADLINE)).as(zero.output()).isZero();
            assertThat(zero.output()).contains("placed at alpha/alpha#0, allreduce 2 1");
            assertThat(zkFile).doesNotExist();
        } finally {
            zero.process().destroyForcibly();
        }
    }

    /** A process 0 told to stop (here while it waits at the start barrier) leaves no file naming a dead server. */
    @Test
    void processZeroStoppedWithSigtermDeletesTheFile() throws Exception {
        String job = "embedded-sigterm-" + System.nanoTime();
        NodeProcess zero = NodeProcesses.start(directory, Map.of(), arguments(job, 0));
        try {
            ZooKeeperFileWait.await(zkFile, JobId.of(job), DEADLINE);

            zero.process().destroy(); // SIGTERM on Linux
            zero.exitStatus(DEADLINE);

            assertThat(zkFile).as(zero.output()).doesNotExist();
        } finally {
            zero.process().destroyForcibly();
        }
    }

    /** A launcher's CANOPY_ZK wins over --zk embedded: the node neither serves nor reads the (here malformed) file. */
    @Test
    void canopyZkFromTheEnvironmentWinsOverTheFile() throws Exception {
        Path oneProcess = directory.resolve("one.rsl");
        Files.writeString(oneProcess, "+\n( &(type = subjob) (label = \"alpha\") (count = 1) )\n");
        Files.writeString(zkFile, "not an address file\n");
        try (TestingServer zooKeeper = new TestingServer(true)) {
            NodeProcess node = NodeProcesses.start(directory, Map.of("CANOPY_ZK", zooKeeper.getConnectString()),
                    List.of("--config", oneProcess.toString(), "--process", "0", "--zk", "embedded", "--zk-file",
                            zkFile.toString(), "--job", "env-" + System.nanoTime(), "--class", PlacementProgram.class.getName(),
                            "--secret-file", secret.toString()));
            try {
                assertThat(node.exitStatus(DEADLINE)).as(node.output()).isZero();
                assertThat(node.output()).contains("placed at alpha/alpha#0, allreduce 1 0");
            } finally {
                node.process().destroyForcibly();
            }
        }
        assertThat(Files.readString(zkFile)).isEqualTo("not an address file\n");
    }

    @Test
    void aMalformedZkFileIsAClearErrorAtOnce() throws Exception {
        Files.writeString(zkFile, "canopy-zookeeper 1\njob j\nconnect evil.example:2181 ; rm -rf /\n");
        StringWriter err = new StringWriter();

        assertThat(runInThisJvm(err, "j", 1, "--zk-wait", "60m")).isEqualTo(2);
        assertThat(err.toString()).startsWith("canopy node: the --zk-file " + zkFile
                + " is not a ZooKeeper address file written by canopy node: it is not \"canopy-zookeeper 1\"")
                .doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void aZkFileOfAnotherJobTimesOutNamingBothJobs() throws Exception {
        ZooKeeperFile.publish(zkFile, JobId.of("yesterdays-job"), "127.0.0.1:2181");
        StringWriter err = new StringWriter();

        assertThat(runInThisJvm(err, "todays-job", 1, "--zk-wait", "500ms")).isEqualTo(2);
        assertThat(err.toString()).startsWith("canopy node: process 0 of job todays-job did not publish its embedded"
                + " ZooKeeper within 500 ms: " + zkFile + " names job yesterdays-job, not this job todays-job");
    }

    @Test
    void aMissingZkFileTimesOutWithAClearMessage() throws Exception {
        StringWriter err = new StringWriter();

        assertThat(runInThisJvm(err, "j", 1, "--zk-wait", "500ms")).isEqualTo(2);
        assertThat(err.toString()).startsWith("canopy node: process 0 of job j did not publish its embedded ZooKeeper"
                + " within 500 ms: " + zkFile + " does not exist;").contains("--zk-wait");
    }

    @Test
    void embeddedWithoutAFileAndAFileWithoutEmbeddedAreBadInput() throws Exception {
        assumeTrue(System.getenv(JobZooKeeper.ENV_ZOOKEEPER) == null, "this test JVM has CANOPY_ZK set");
        StringWriter err = new StringWriter();
        assertThat(CanopyMain.run(new PrintWriter(new StringWriter()), new PrintWriter(err, true), "node", "--config",
                grid.toString(), "--process", "1", "--zk", "embedded", "--job", "j", "--class",
                PlacementProgram.class.getName(), "--secret-file", secret.toString())).isEqualTo(2);
        assertThat(err.toString()).startsWith("canopy node: --zk embedded needs --zk-file PATH");

        StringWriter second = new StringWriter();
        assertThat(CanopyMain.run(new PrintWriter(new StringWriter()), new PrintWriter(second, true), "node", "--config",
                grid.toString(), "--process", "1", "--zk", "127.0.0.1:1", "--zk-file", zkFile.toString(), "--job", "j",
                "--class", PlacementProgram.class.getName(), "--secret-file", secret.toString())).isEqualTo(2);
        assertThat(second.toString()).startsWith("canopy node: --zk-file is only used with --zk embedded");
    }

    /** {@code canopy node} in this JVM (for the cases that end before joining); needs no CANOPY_ZK here. */
    private int runInThisJvm(StringWriter err, String job, int process, String... extra) {
        assumeTrue(System.getenv(JobZooKeeper.ENV_ZOOKEEPER) == null, "this test JVM has CANOPY_ZK set");
        List<String> arguments = new ArrayList<>(List.of("node", "--config", grid.toString(), "--process",
                Integer.toString(process), "--zk", "embedded", "--zk-file", zkFile.toString(), "--job", job, "--class",
                PlacementProgram.class.getName(), "--secret-file", secret.toString()));
        arguments.addAll(List.of(extra));
        return CanopyMain.run(new PrintWriter(new StringWriter()), new PrintWriter(err, true), arguments.toArray(String[]::new));
    }

    private List<String> arguments(String job, int process) {
        return List.of("--config", grid.toString(), "--process", Integer.toString(process), "--zk", "embedded",
                "--zk-file", zkFile.toString(), "--job", job, "--class", PlacementProgram.class.getName(),
                "--secret-file", secret.toString());
    }
}
