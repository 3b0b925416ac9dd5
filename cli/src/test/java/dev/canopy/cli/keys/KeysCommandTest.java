package dev.canopy.cli.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.cli.TlsOptionsMixin;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.gridconfig.GridConfigs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code canopy keys} writes certificates that {@code --tls DIR} accepts: private keys only their owner may
 * read, valid for the days asked, and a launch of four JVMs with them runs allreduce under TLS.
 */
@Timeout(180)
class KeysCommandTest {

    @TempDir
    Path directory;

    @Test
    void keysAreUsableByEveryProcessAndPrivate() throws Exception {
        Path out = directory.resolve("job-keys");
        Run run = canopy("keys", "--out", out.toString(), "--nodes", "2", "--days", "3");

        assertThat(run.status).as(run.output).isZero();
        for (String key : List.of("ca.key", "node-0.key", "node-1.key")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve(key)))).isEqualTo("rw-------");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rwx------");
        TlsSettings first = TlsSettings.fromDirectory(out, 0);
        TlsSettings second = TlsSettings.fromDirectory(out, 1);
        assertThat(first.certificate()).isNotEqualTo(second.certificate());
        assertThat(first.refusal(List.of(second.certificate()))).isEmpty();
        assertThat(first.certificate().getNotAfter().toInstant())
                .isBetween(Instant.now().plus(Duration.ofDays(3)).minusSeconds(60), Instant.now().plus(Duration.ofDays(3)));
    }

    @Test
    void nothingIsOverwritten() {
        Path out = directory.resolve("once");
        assertThat(canopy("keys", "--out", out.toString()).status).isZero();

        Run again = canopy("keys", "--out", out.toString());

        assertThat(again.status).isEqualTo(2);
        assertThat(again.output).contains("canopy keys: " + out.resolve("ca.crt") + " exists already");
    }

    @Test
    void partialOrConflictingTlsOptionsNameWhatIsMissing() {
        assertThat(mixinError("--tls-cert", "a.crt", "--tls-ca", "ca.crt")).contains("missing: --tls-key");
        assertThat(mixinError("--tls", "dir", "--tls-cert", "a.crt")).contains("either --tls DIR or --tls-cert");
        assertThat(mixinError("--tls")).contains("canopy keys --out DIR");
        assertThat(mixinError("--tls", directory.resolve("none").toString())).contains("does not exist");
    }

    @Test
    @Tag("multiprocess")
    void aLaunchWithTheKeysRunsAllreduceUnderTls() throws Exception {
        Path keys = directory.resolve("keys");
        assertThat(canopy("keys", "--out", keys.toString(), "--nodes", "4").status).isZero();
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));

        Run launch = canopy("launch", "--config", config.toString(), "--class", TlsProgram.class.getName(),
                "--timeout", "150", "--tls", keys.toString());

        assertThat(launch.status).as(launch.output).isZero();
        for (int rank = 0; rank < 4; rank++) {
            assertThat(launch.output).contains("[rank " + rank + "] with TLS allreduce 4 6");
        }
    }

    private static String mixinError(String... arguments) {
        Holder holder = new Holder();
        new CommandLine(holder).parseArgs(arguments);
        try {
            holder.tls.settings(0);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError("no error for " + List.of(arguments));
    }

    private static Run canopy(String... arguments) {
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(out));
        int status = cli.execute(arguments);
        return new Run(status, out.toString());
    }

    private record Run(int status, String output) {
    }

    @Command(name = "holder")
    static final class Holder {
        @Mixin
        TlsOptionsMixin tls;
    }
}
