package dev.canopy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.canopy.cli.collectives.AllreduceProgram;
import dev.canopy.gridconfig.GridConfigs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** {@code -v} and {@code -q}: this JVM's log level, the progress lines, and the log level of the processes started. */
class VerbosityTest {

    @TempDir
    Path directory;

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = CanopyMain.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(status, out.toString(), err.toString());
    }

    private static Level rootLevel() {
        return ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).getLevel();
    }

    /** The next test's commands share this JVM (some parse without CanopyMain): none may inherit a -v or -q. */
    @AfterEach
    void neitherAfterwards() {
        assertThat(run("completion").status()).isZero();
    }

    @Test
    void minusVLogsAtInfoMinusQAtErrorAnywhereOnTheLineAndNeitherOutlivesItsRun() {
        Level configured = rootLevel();
        assertThat(run("-v", "completion").status()).isZero();
        assertThat(rootLevel()).isEqualTo(Level.INFO);
        assertThat(run("completion", "-q").status()).isZero();
        assertThat(rootLevel()).isEqualTo(Level.ERROR);
        assertThat(Verbosity.quiet()).isTrue();
        assertThat(run("completion").status()).isZero();
        assertThat(rootLevel()).isEqualTo(configured);
        assertThat(Verbosity.quiet()).isFalse();
    }

    @Test
    void minusVAndMinusQTogetherAreBadInput() {
        Run run = run("-v", "completion", "--quiet");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("give -v (--verbose) or -q (--quiet), not both");
    }

    @Test
    void quietDropsProgressLines() {
        StringWriter err = new StringWriter();
        run("-q", "completion");
        Verbosity.progress(new PrintWriter(err), "canopy launch: 4 processes started");
        run("completion");
        Verbosity.progress(new PrintWriter(err), "canopy launch: 2 processes started");
        assertThat(err.toString()).doesNotContain("4 processes").contains("2 processes");
    }

    @Tag("multiprocess")
    @Test
    void aVerboseLaunchSaysWhatItDoesAndItsProcessesLogAtInfo() throws Exception {
        Path config = Files.writeString(directory.resolve("two-site.rsl"), GridConfigs.bundledText("two-site.rsl"));
        Run run = run("launch", "-v", "--config", config.toString(), "--class", AllreduceProgram.class.getName(),
                "--timeout", "150");
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.err()).contains("canopy launch: 4 processes started on this machine");
        // A process's INFO line, which its default level (WARN) would hide: -v reached its JVM.
        assertThat(run.out()).containsPattern("\\[rank [0-3]\\] [0-9:.]+ INFO ");
        assertThat(run.out()).contains("[rank 3] allreduce 4 6");
    }
}
