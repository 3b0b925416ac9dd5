package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.canopy.cli.CanopyMain;
import dev.canopy.collectives.run.LauncherEnvironment;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code canopy node}, once per process of the two-site grid, against one ZooKeeper: the processes meet and run. */
class NodeCommandTest {

    @TempDir
    Path directory;

    @Test
    void oneNodeCommandPerProcessFormsTheJobAndRunsTheProgram() throws Exception {
        runEveryProcess("node-test", process -> List.of());
    }

    @Test
    void processesBoundToExplicitAddressesReachEachOther() throws Exception {
        // Three listen on 127.0.0.1; the last on every interface, advertising 127.0.0.1.
        runEveryProcess("node-host-test", process -> process < 3 ? List.of("--host", "127.0.0.1")
                : List.of("--host", "0.0.0.0", "--advertise", "127.0.0.1"));
    }

    @Test
    void processesThatWarmTheirWanConnectionsFirstFormTheJobAndRunTheProgram() throws Exception {
        runEveryProcess("node-warm-test", process -> List.of("--warm-wan", "65536"));
    }

    @Test
    void aWarmUpSizeOutsideItsRangeIsBadInputNamingTheOption() throws Exception {
        StringWriter err = new StringWriter();

        assertThat(runProcessZero(err, "--warm-wan", "-1")).isEqualTo(2);
        assertThat(err.toString()).contains("--warm-wan -1: give off, auto or 1024 to 67108864 bytes")
                .doesNotContain("\tat ");
    }

    @Test
    void anAddressThatIsNotThisMachinesIsBadInputNamingTheOptionAndTheFix() throws Exception {
        String elsewhere = anAddressOfNoInterface();
        StringWriter err = new StringWriter();

        assertThat(runProcessZero(err, "--host", elsewhere)).isEqualTo(2);
        assertThat(err.toString()).startsWith("canopy node: --host " + elsewhere + " is not an address of this machine")
                .contains("127.0.0.1").contains("--advertise ADDRESS")
                .doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void listeningOnEveryInterfaceWithoutAnAdvertisedAddressIsBadInput() throws Exception {
        StringWriter err = new StringWriter();

        assertThat(runProcessZero(err, "--host", "0.0.0.0")).isEqualTo(2);
        assertThat(err.toString()).contains("--host 0.0.0.0 listens on every interface")
                .contains("add --advertise ADDRESS");
    }

    @Test
    void aProcessIndexOutsideTheFileIsBadInput() throws Exception {
        assertThat(CanopyMain.run("node", "--config", twoSiteConfig().toString(), "--process", "9", "--zk",
                "127.0.0.1:1", "--job", "j", "--class", AllreduceProgram.class.getName(), "--secret-file",
                secretFile().toString())).isEqualTo(2);
    }

    @Test
    void withoutProcessOrLauncherVariablesTheNodeSaysHowToGiveItsIndex() throws Exception {
        assumeTrue(LauncherEnvironment.RANK_VARIABLES.stream().noneMatch(System.getenv()::containsKey),
                "this test JVM runs under a launcher (" + LauncherEnvironment.RANK_VARIABLES + ")");
        StringWriter err = new StringWriter();

        int status = CanopyMain.run(new PrintWriter(new StringWriter()), new PrintWriter(err, true), "node", "--config",
                twoSiteConfig().toString(), "--zk", "127.0.0.1:1", "--job", "j", "--class", AllreduceProgram.class.getName(),
                "--secret-file", secretFile().toString());

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).startsWith("canopy node: no --process, and no launcher variable (OMPI_COMM_WORLD_RANK,"
                + " PMIX_RANK, PMI_RANK, MV2_COMM_WORLD_RANK, SLURM_PROCID) says which process this is: give --process N,"
                + " or start canopy node under mpirun or srun");
    }

    /** Runs {@code canopy node} for each of the four processes of the two-site grid, with {@code extra} arguments. */
    private void runEveryProcess(String job, IntFunction<List<String>> extra) throws Exception {
        Path config = twoSiteConfig();
        ExecutorService processes = Executors.newFixedThreadPool(4);
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start()) {
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int process = 0; process < 4; process++) {
                List<String> command = new ArrayList<>(List.of("node", "--config", config.toString(), "--process",
                        Integer.toString(process), "--zk", zooKeeper.connectString(), "--job", job,
                        "--class", AllreduceProgram.class.getName(), "--secret-file", secretFile().toString()));
                command.addAll(extra.apply(process));
                statuses.add(processes.submit(() -> CanopyMain.run(command.toArray(String[]::new))));
            }
            for (Future<Integer> status : statuses) {
                assertThat(status.get(120, TimeUnit.SECONDS)).isZero();
            }
        } finally {
            processes.shutdownNow();
        }
    }

    /** Process 0 with {@code extra} arguments and a ZooKeeper nobody listens at; only bad input returns early. */
    private int runProcessZero(StringWriter err, String... extra) throws Exception {
        List<String> command = new ArrayList<>(List.of("node", "--config", twoSiteConfig().toString(), "--process",
                "0", "--zk", "127.0.0.1:1", "--job", "j", "--class", AllreduceProgram.class.getName()));
        command.addAll(List.of(extra));
        if (!command.contains("--secret-file")) {
            command.addAll(List.of("--secret-file", secretFile().toString()));
        }
        return CanopyMain.run(new PrintWriter(new StringWriter()), new PrintWriter(err, true),
                command.toArray(String[]::new));
    }

    @Test
    void aSecretFileOthersMayReadIsRefusedNamingTheFix() throws Exception {
        Path open = directory.resolve("open.key");
        Files.writeString(open, "ab".repeat(32) + "\n");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        StringWriter err = new StringWriter();

        assertThat(runProcessZero(err, "--secret-file", open.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("may be read or changed by others").contains("chmod 600 " + open);
    }

    /** The job secret every process of these tests shares, made once per test directory. */
    private Path secretFile() throws Exception {
        Path file = directory.resolve("job.key");
        if (!Files.exists(file)) {
            JobSecret.generate().writeTo(file);
        }
        return file;
    }

    private Path twoSiteConfig() throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        return config;
    }

    /** A documentation address (RFC 5737) that no interface of this machine has; nothing is ever sent to it. */
    private static String anAddressOfNoInterface() throws Exception {
        for (int last = 1; last < 255; last++) {
            InetAddress candidate = InetAddress.getByAddress(new byte[] {(byte) 198, 51, 100, (byte) last});
            if (NetworkInterface.getByInetAddress(candidate) == null) {
                return candidate.getHostAddress();
            }
        }
        throw new IllegalStateException("every address of 198.51.100.0/24 is on this machine");
    }
}
