package dev.canopy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * What reaches the top of the command line: bad input exits 2, running out of memory or stack exits 2,
 * an operational failure exits 1; each is one line on stderr, with the stack trace only after -v.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UserFacingErrorsTest {

    /** A subcommand that fails the way it is told to, so each path to the top is taken for real. */
    @Command(name = "fail")
    static final class FailingCommand implements Callable<Integer> {

        private final Supplier<Throwable> failure;

        FailingCommand(Supplier<Throwable> failure) {
            this.failure = failure;
        }

        @Override
        public Integer call() throws Exception {
            Throwable thrown = failure.get();
            if (thrown instanceof Error error) {
                throw error;
            }
            throw (Exception) thrown;
        }
    }

    private record Run(int status, String err) {
    }

    private static Run run(Supplier<Throwable> failure, String... args) {
        CommandLine commandLine = CanopyMain.commandLine().addSubcommand(new FailingCommand(failure));
        StringWriter err = new StringWriter();
        commandLine.setErr(new PrintWriter(err, true));
        return new Run(CanopyMain.run(commandLine, args), err.toString());
    }

    @Test
    void runningOutOfMemoryIsBadInputInOneLine() {
        Run run = run(() -> new OutOfMemoryError("Java heap space"), "fail");

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("canopy fail: ran out of memory (Java heap space): the input is too large for this JVM;"
                + " give a smaller input, or more heap with CANOPY_JAVA_OPTS=-Xmx4g" + System.lineSeparator());
    }

    @Test
    void runningOutOfStackIsBadInputInOneLine() {
        Run run = run(StackOverflowError::new, "fail");

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err().lines()).singleElement().asString().startsWith("canopy fail: ran out of stack: the input is nested"
                + " too deeply for this JVM");
    }

    @Test
    void anOperationalFailureIsOneLineWithExitOneAndPointsAtVerbose() {
        Run run = run(() -> new CompletionException(new IllegalStateException("rank 3 failed: its member znode was deleted")),
                "fail");

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("canopy fail: rank 3 failed: its member znode was deleted (-v shows the stack trace)"
                + System.lineSeparator());
    }

    @Test
    void verboseAddsTheStackTraceWhereverItIsGiven() {
        for (String[] args : new String[][] {{"-v", "fail"}, {"fail", "-v"}, {"fail", "--verbose"}}) {
            Run run = run(() -> new IllegalStateException("ZooKeeper unreachable"), args);

            assertThat(run.status()).isEqualTo(1);
            assertThat(run.err().lines().findFirst()).hasValue("canopy fail: ZooKeeper unreachable");
            assertThat(run.err()).contains("java.lang.IllegalStateException: ZooKeeper unreachable", "\tat ");
        }
    }

    @Test
    void verboseDoesNotOutliveItsRun() {
        run(() -> new IllegalStateException("first"), "fail", "-v");
        assertThat(Boolean.getBoolean("canopy.verbose")).isTrue();

        Run quiet = run(() -> new IllegalStateException("second"), "fail");

        assertThat(Boolean.getBoolean("canopy.verbose")).isFalse();
        assertThat(quiet.err().lines()).hasSize(1);
    }

    @Test
    void badInputIsExitTwo() {
        Run run = run(() -> new IllegalArgumentException("--root must name a node"), "fail");

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("canopy fail: --root must name a node" + System.lineSeparator());
    }

    @Test
    void aLevelFileFromDevZeroIsRefusedWithExitTwo() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(Path.of("/dev/zero")), "no /dev/zero");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int status = CanopyMain.run(new PrintWriter(out, true), new PrintWriter(err, true), "config", "check", "/dev/zero");

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("/dev/zero: error: is larger than 4194304 bytes; not a level file");
    }

    @Test
    void configCheckCountsEveryErrorThoughItShowsTheFirstHundred() throws Exception {
        Path file = Files.createTempFile("bangs", ".rsl");
        try {
            Files.writeString(file, "!\n".repeat(500)); // 500 lexer errors, then "no sections" and "no subjob section"
            StringWriter err = new StringWriter();

            int status = CanopyMain.run(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), "config", "check",
                    file.toString());

            assertThat(status).isEqualTo(2);
            assertThat(err.toString().lines()).hasSize(102).last().isEqualTo("502 errors in " + file);
        } finally {
            Files.delete(file);
        }
    }
}
