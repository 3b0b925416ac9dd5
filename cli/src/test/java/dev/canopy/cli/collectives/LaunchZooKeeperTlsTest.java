package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.cli.CanopyMain;
import dev.canopy.gridconfig.GridConfigs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code canopy launch --zk-tls DIR}: the embedded ZooKeeper has a TLS port only, and the four launched JVMs
 * reach it over TLS (they could not otherwise join); directories that cannot work are bad input naming the file.
 * The directory is {@link ZooKeeperTlsKeys}' (a self-signed server certificate for 127.0.0.1).
 */
@Tag("multiprocess")
@Timeout(180)
class LaunchZooKeeperTlsTest {

    @TempDir
    Path directory;

    private Path config() throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        return config;
    }

    private Path tlsDirectory() throws Exception {
        return ZooKeeperTlsKeys.create(directory.resolve("zk-tls"), "ip:127.0.0.1,dns:localhost");
    }

    @Test
    void everyLaunchedProcessJoinsThroughTheEmbeddedZooKeepersTlsPort() throws Exception {
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(out));

        int status = cli.execute("launch", "--config", config().toString(), "--class", AllreduceProgram.class.getName(),
                "--zk-tls", tlsDirectory().toString(), "--timeout", "150");

        assertThat(status).as(out.toString()).isZero();
        for (int rank = 0; rank < 4; rank++) {
            assertThat(out.toString()).contains("[rank " + rank + "] allreduce 4 6");
        }
    }

    @Test
    void withoutTheServersKeyTheEmbeddedZooKeeperCannotServeTlsAndNothingStarts() throws Exception {
        Path tls = tlsDirectory();
        Files.delete(tls.resolve("server.p12"));
        StringWriter err = new StringWriter();

        int status = CanopyMain.run(new PrintWriter(new StringWriter()), new PrintWriter(err, true), "launch", "--config",
                config().toString(), "--class", "X", "--zk-tls", tls.toString());

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("canopy launch: ZooKeeper TLS directory " + tls + " has no server.p12");
    }

    @Test
    void aKeyOthersMayReadIsBadInputNamingTheFix() throws Exception {
        Path tls = tlsDirectory();
        Path key = tls.resolve("server.p12");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        StringWriter err = new StringWriter();

        int status = CanopyMain.run(new PrintWriter(new StringWriter()), new PrintWriter(err, true), "launch", "--config",
                config().toString(), "--class", "X", "--zk", "127.0.0.1:1", "--zk-tls", tls.toString());

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("ZooKeeper TLS file " + key).contains("chmod 600 " + key);
    }
}
