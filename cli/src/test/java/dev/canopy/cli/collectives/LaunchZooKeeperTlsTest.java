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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code canopy launch --zk-tls DIR}: the embedded ZooKeeper has a TLS port only, and the four launched JVMs
 * reach it over TLS (they could not otherwise join); directories that cannot work are bad input naming the file.
 * The directory is PKCS#12 made with the JDK's keytool (a self-signed server certificate for 127.0.0.1, which is
 * also the trusted certificate), so this module needs no certificate code of its own; core's tests cover PEM.
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

    private static final String PASSWORD = "canopy-test-password";

    private Path tlsDirectory() throws Exception {
        Path tls = Files.createDirectory(directory.resolve("zk-tls"));
        keytool(tls, "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=zookeeper", "-ext", "san=ip:127.0.0.1,dns:localhost", "-validity", "2", "-keystore", "server.p12");
        keytool(tls, "-exportcert", "-alias", "server", "-keystore", "server.p12", "-file", "server.crt");
        keytool(tls, "-importcert", "-noprompt", "-alias", "server", "-file", "server.crt", "-keystore", "ca.p12");
        Files.writeString(tls.resolve("password"), PASSWORD + "\n");
        for (String secret : List.of("server.p12", "password")) {
            Files.setPosixFilePermissions(tls.resolve(secret), PosixFilePermissions.fromString("rw-------"));
        }
        return tls;
    }

    private static void keytool(Path directory, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(arguments));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("keytool " + String.join(" ", arguments) + " failed: " + output);
        }
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
