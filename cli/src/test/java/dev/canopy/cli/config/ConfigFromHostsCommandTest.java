package dev.canopy.cli.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code canopy config from-hostfile} and {@code from-slurm}: the level file they print is one that
 * {@code canopy config check} accepts, and bad input exits 2 naming the place.
 */
@Timeout(60)
class ConfigFromHostsCommandTest {

    @TempDir
    Path directory;

    @Test
    void aHostfileBecomesALevelFileThatChecks() throws Exception {
        Path hostfile = directory.resolve("cluster.hosts");
        Files.writeString(hostfile, "# two sites\nn1.lyon.example slots=2\nn2.lyon.example:2\nn1.nancy.example slots=4\n");

        ConfigCli written = ConfigCli.run("config", "from-hostfile", hostfile.toString(), "--site-by", "domain");

        assertThat(written.exitCode()).as(written.err()).isZero();
        assertThat(written.out()).contains("(name = \"cluster\")").contains("(site = \"lyon.example\") (count = 4)")
                .contains("(hosts = \"n1.nancy.example:4\")");
        Path levelFile = directory.resolve("cluster.rsl");
        Files.writeString(levelFile, written.out());
        ConfigCli checked = ConfigCli.run("config", "check", levelFile.toString());
        assertThat(checked.exitCode()).as(checked.err()).isZero();
        assertThat(checked.out()).contains("ok: grid \"cluster\"").contains("sites:     2 in 2 wan groups")
                .contains("processes: 8 in 2 subjobs");
    }

    @Test
    void outputGoesToAFileWithASummary() throws Exception {
        Path output = directory.resolve("slurm.rsl");

        ConfigCli written = ConfigCli.run("config", "from-slurm", "--nodelist", "gpu[01-02],cpu[1-3]", "--tasks-per-node",
                "4(x2),1(x3)", "--site-by", "prefix:[a-z]+", "--name", "partitions", "-o", output.toString());

        assertThat(written.exitCode()).as(written.err()).isZero();
        assertThat(written.out()).isEqualTo(output + ": grid \"partitions\", 11 processes on 5 hosts in 2 sites (gpu, cpu)\n");
        ConfigCli checked = ConfigCli.run("config", "check", output.toString());
        assertThat(checked.exitCode()).as(checked.err()).isZero();
    }

    @Test
    void badInputExitsTwoNamingThePlace() throws Exception {
        Path hostfile = directory.resolve("hosts");
        Files.writeString(hostfile, "n1 slots=two\nn2\n");

        ConfigCli badLine = ConfigCli.run("config", "from-hostfile", hostfile.toString(), "--site-by", "prefix:n");
        assertThat(badLine.exitCode()).isEqualTo(2);
        assertThat(badLine.err()).isEqualTo(hostfile + ":1:10: error: slots must be a whole number, got \"two\"\n"
                + "1 error; no level file written\n");
        assertThat(badLine.out()).isEmpty();

        ConfigCli unplaced = ConfigCli.run("config", "from-slurm", "--nodelist", "n[1-2]", "--site-by", "domain");
        assertThat(unplaced.exitCode()).isEqualTo(2);
        assertThat(unplaced.err()).startsWith("--nodelist: error: host n1 has no domain").contains("2 errors");

        ConfigCli badRule = ConfigCli.run("config", "from-hostfile", hostfile.toString(), "--site-by", "subnet:/40");
        assertThat(badRule.exitCode()).isEqualTo(2);
        assertThat(badRule.err()).contains("subnet:/40 needs a prefix length 0 to 32");

        ConfigCli lonelyTasks = ConfigCli.run("config", "from-slurm", "--tasks-per-node", "2", "--site-by", "domain");
        assertThat(lonelyTasks.exitCode()).isEqualTo(2);
        assertThat(lonelyTasks.err()).startsWith("--tasks-per-node: error: goes with --nodelist");

        ConfigCli missing = ConfigCli.run("config", "from-hostfile", directory.resolve("nope").toString(), "--site-by", "domain");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).startsWith(directory.resolve("nope") + ": error: no such file");
    }
}
