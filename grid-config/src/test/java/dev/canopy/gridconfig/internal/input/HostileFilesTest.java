package dev.canopy.gridconfig.internal.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.canopy.gridconfig.Diagnostic;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.ParseResult;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Files that are not regular files: the 4 MiB limit holds for devices and pipes, and a FIFO never blocks forever. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostileFilesTest {

    private static final Duration SHORT = Duration.ofMillis(300);

    @TempDir
    Path directory;

    private static String onlyError(ParseResult result) {
        assertThat(result.isValid()).isFalse();
        return result.diagnostics().stream().map(Diagnostic::format).reduce((a, b) -> a + "\n" + b).orElseThrow();
    }

    @Test
    void devZeroIsRefusedAfterTheLimit() {
        Path zero = Path.of("/dev/zero");
        assumeTrue(Files.isReadable(zero), "no /dev/zero on this system");

        assertThat(onlyError(GridConfigs.load(zero))).isEqualTo("/dev/zero: error: is larger than 4194304 bytes; not a level file");
    }

    @Test
    void aFifoWithNoWriterTimesOutWithAMessageNamingIt() throws Exception {
        Path fifo = fifo("nobody-writes.rsl");
        try {
            long start = System.nanoTime();
            String error = onlyError(GridConfigs.load(fifo, SHORT));

            assertThat(error).isEqualTo(fifo + ": error: could not be opened or gave no data within 300 ms (a FIFO or pipe with no writer?)");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
        } finally {
            releaseBlockedOpen(fifo);
        }
    }

    @Test
    void aPipeWithMoreThanTheLimitIsRefusedAfterTheLimit() throws Exception {
        Path fifo = fifo("endless.rsl");
        Thread writer = new Thread(() -> {
            try (OutputStream out = Files.newOutputStream(fifo)) {
                byte[] chunk = "+ ( &(type = subjob) (count = 1) )\n".repeat(1000).getBytes();
                while (true) {
                    out.write(chunk);
                }
            } catch (IOException e) {
                // the reader closed its end: expected
            }
        });
        writer.setDaemon(true);
        writer.start();

        assertThat(onlyError(GridConfigs.load(fifo, Duration.ofSeconds(10))))
                .isEqualTo(fifo + ": error: is larger than 4194304 bytes; not a level file");
        writer.join(TimeUnit.SECONDS.toMillis(20));
        assertThat(writer.isAlive()).as("the writer got a broken pipe once the reader gave up").isFalse();
    }

    @Test
    void aRegularFileJustOverTheLimitIsRefused() throws Exception {
        Path big = directory.resolve("big.rsl");
        Files.write(big, new byte[(int) GridConfigs.MAX_FILE_BYTES + 1]);

        assertThat(onlyError(GridConfigs.load(big))).isEqualTo(big + ": error: is larger than 4194304 bytes; not a level file");
    }

    @Test
    void aRegularFileAtTheLimitIsRead() throws Exception {
        Path full = directory.resolve("full.rsl");
        String section = "+ ( &(type = subjob) (count = 1) )";
        Files.writeString(full, section + " ".repeat((int) GridConfigs.MAX_FILE_BYTES - section.length()));

        assertThat(GridConfigs.load(full).isValid()).isTrue();
    }

    @Test
    void aStreamStopsAtTheLimitPlusOneByte() throws Exception {
        Path file = directory.resolve("ten");
        Files.write(file, new byte[10]);

        assertThat(BoundedInput.readAll(file, 10, SHORT)).hasSize(10);
        try (var in = BoundedInput.open(file, 9, SHORT)) {
            assertThat(in.readNBytes(9)).hasSize(9);
            org.assertj.core.api.Assertions.assertThatThrownBy(in::read).isInstanceOf(InputTooLargeException.class);
        }
    }

    private Path fifo(String name) throws Exception {
        Path fifo = directory.resolve(name);
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (IOException e) {
            assumeTrue(false, "mkfifo is not available: " + e.getMessage());
            throw e;
        }
        assumeTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo failed");
        return fifo;
    }

    /** Opening the FIFO for writing lets the reading thread still parked in open() finish and exit. */
    private static void releaseBlockedOpen(Path fifo) throws IOException {
        Files.newOutputStream(fifo).close();
    }
}
