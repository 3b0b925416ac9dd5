package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.gridconfig.GridConfigs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code canopy launch} on the bundled two-site grid: four JVMs, an embedded ZooKeeper, loopback TCP. */
@Tag("multiprocess")
class LaunchCommandTest {

    @TempDir
    Path directory;

    @Test
    void everyProcessRunsTheProgramAndItsOutputIsPrefixedByRank() throws Exception {
        Launch launch = launch(AllreduceProgram.class);
        assertThat(launch.status).as(launch.output).isZero();
        for (int rank = 0; rank < 4; rank++) {
            assertThat(launch.output).contains("[rank " + rank + "] allreduce 4 6");
        }
    }

    @Test
    void everyOperationFromEveryRootGivesItsClosedFormResultInSeparateJvms() throws Exception {
        Launch launch = launch(SelfCheckingProgram.class);
        assertThat(launch.status).as(launch.output).isZero();
        for (int rank = 0; rank < 4; rank++) {
            assertThat(launch.output).contains("[rank " + rank + "] self-check passed");
        }
    }

    @Test
    void withLivePlansEveryProcessAdoptsTheLeadersPlanAtTheSameSwitchPoint() throws Exception {
        Launch launch = launch(AdaptingProgram.class, "--live-plans");
        assertThat(launch.status).as(launch.output).isZero();
        List<String> lines = launch.output.lines().filter(line -> line.contains("on live plan epoch")).toList();
        assertThat(lines).as(launch.output).hasSize(4);
        assertThat(lines).extracting(line -> line.substring(line.indexOf("on live plan epoch")))
                .as("every rank on the same epoch, with the right sum").containsOnly(lines.get(0)
                        .substring(lines.get(0).indexOf("on live plan epoch")))
                .allSatisfy(line -> assertThat(line).endsWith("allreduce 4 6"));
    }

    @Test
    void theExitStatusIsTheWorstAndSurvivorsFailNamingTheFailedRank() throws Exception {
        Launch launch = launch(FailingProgram.class);
        assertThat(launch.status).as(launch.output).isEqualTo(1);
        assertThat(launch.output).contains("rank 1 gives up").contains("rank 1 failed")
                .doesNotContain("completed although");
    }

    @Test
    void aMainProgramGetsItsArgumentsAsGivenAndJoinsFromTheEnvironment() throws Exception {
        List<String> options = new ArrayList<>(List.of("--"));
        options.addAll(ArgumentsProgram.AWKWARD_ARGUMENTS);
        Launch launch = launch(ArgumentsProgram.class, options.toArray(String[]::new));
        assertThat(launch.status).as(launch.output).isZero();
        for (int rank = 0; rank < 4; rank++) {
            assertThat(launch.output).contains("[rank " + rank + "] arguments " + ArgumentsProgram.AWKWARD_ARGUMENTS.size());
            for (int i = 0; i < ArgumentsProgram.AWKWARD_ARGUMENTS.size(); i++) {
                assertThat(launch.output).contains("[rank " + rank + "] argument " + i + " "
                        + ArgumentsProgram.hex(ArgumentsProgram.AWKWARD_ARGUMENTS.get(i)));
            }
            assertThat(launch.output).contains("[rank " + rank + "] allreduce 4 6");
        }
    }

    @Test
    void aMissingLevelFileIsBadInput() {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new CanopyCommand()).setErr(new PrintWriter(err));
        int status = cli.execute("launch", "--config", directory.resolve("nowhere.rsl").toString(), "--class", "X");
        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("nowhere.rsl does not exist");
    }

    @Test
    void aSecretFileOthersMayReadIsBadInputAndNoProcessStarts() throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        Path secret = directory.resolve("open.key");
        Files.writeString(secret, "0f".repeat(32));
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-rw-rw-"));
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new CanopyCommand()).setErr(new PrintWriter(err));

        int status = cli.execute("launch", "--config", config.toString(), "--class", "X", "--secret-file", secret.toString());

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("canopy launch: secret file " + secret).contains("chmod 600 " + secret);
    }

    private Launch launch(Class<?> program, String... options) throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(out));
        List<String> arguments = new ArrayList<>(List.of("launch", "--config", config.toString(), "--class", program.getName(),
                "--timeout", "150"));
        arguments.addAll(List.of(options));
        int status = cli.execute(arguments.toArray(String[]::new));
        return new Launch(status, out.toString());
    }

    private record Launch(int status, String output) {
    }
}
