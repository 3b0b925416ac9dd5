package dev.canopy.cli.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code canopy launch --hostfile} refuses unusable options before it starts anything, saying what to fix. */
class LaunchOverSshOptionsTest {

    @TempDir
    Path directory;

    private record Run(int status, String output) {
    }

    private Run launch(String hostfileText, String... arguments) throws Exception {
        Path hostfile = directory.resolve("hosts");
        Files.writeString(hostfile, hostfileText);
        List<String> all = new ArrayList<>(List.of("launch", "--hostfile", hostfile.toString(), "--class", "demo.Sums"));
        all.addAll(List.of(arguments));
        StringWriter out = new StringWriter();
        int status = CanopyMain.run(new PrintWriter(out), new PrintWriter(out), all.toArray(String[]::new));
        return new Run(status, out.toString());
    }

    @Test
    void aHostfileNeedsASiteRule() throws Exception {
        Run run = launch("n1.lyon.example\n");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.output()).contains("--hostfile needs --site-by RULE");
    }

    @Test
    void aMissingSshClientIsNamedWithTheFix() throws Exception {
        Run run = launch("n1.lyon.example\n", "--site-by", "domain", "--ssh", "/nonexistent/ssh");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.output()).contains("--ssh /nonexistent/ssh: no such program; install OpenSSH's client");
    }

    @Test
    void badSshOptionsAreNamed() throws Exception {
        assertThat(launch("n1.lyon.example\n", "--site-by", "domain", "--ssh-port", "0").output())
                .contains("--ssh-port 0 is not a port (1-65535)");
        assertThat(launch("n1.lyon.example\n", "--site-by", "domain", "--ssh-user", "-oProxyCommand=x").output())
                .contains("is not a user name");
        assertThat(launch("n1.lyon.example\n", "--site-by", "domain", "--ssh-fanout", "0").output())
                .contains("--ssh-fanout must be at least 1, got 0");
    }

    @Test
    void aLevelFileAndAHostfileTogetherAreRefused() throws Exception {
        Path config = directory.resolve("grid.rsl");
        Files.writeString(config, "+\n( &(type = subjob) (count = 1) )\n");
        Run run = launch("n1.lyon.example\n", "--site-by", "domain", "--config", config.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.output()).contains("give --config FILE or --hostfile FILE, not both");
    }

    @Test
    void aZooKeeperOnTheLoopbackIsRefusedForRemoteHosts() throws Exception {
        Run run = launch("n1.lyon.example\n", "--site-by", "domain", "--ssh", "/bin/true", "--zk", "zk1:2181,127.0.0.1:2181");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.output()).contains("--zk zk1:2181,127.0.0.1:2181: 127.0.0.1:2181 is the loopback address");
    }

    @Test
    void aHostThatDoesNotResolveCannotHostTheEmbeddedZooKeeper() throws Exception {
        Run run = launch("n1.nowhere.invalid\n", "--site-by", "domain", "--ssh", "/bin/true");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.output()).contains("host n1.nowhere.invalid does not resolve on this machine")
                .contains("--zk HOST:PORT");
    }
}
