package dev.canopy.topology.internal.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Latency CSVs written to hurt the reader: each is refused with a short message naming the place, in bounded memory. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostileLatencyCsvTest {

    @TempDir
    Path directory;

    /** {@code prefix}, then one line of {@code length} characters made on the fly: a 300 MB line without 300 MB anywhere. */
    private static Reader endlessLineAfter(String prefix, long length) {
        return new Reader() {
            private int prefixAt;
            private long left = length;

            @Override
            public int read(char[] buffer, int offset, int count) {
                if (prefixAt < prefix.length()) {
                    int n = Math.min(count, prefix.length() - prefixAt);
                    prefix.getChars(prefixAt, prefixAt + n, buffer, offset);
                    prefixAt += n;
                    return n;
                }
                if (left == 0) {
                    return -1;
                }
                int n = (int) Math.min(count, left);
                Arrays.fill(buffer, offset, offset + n, 'x');
                left -= n;
                return n;
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void aThreeHundredMegabyteLineIsRefusedAfterTheLineLimit() {
        Reader input = endlessLineAfter("from,to,rtt_ms\na,b,1\n", 300L << 20);

        assertThatThrownBy(() -> LatencyCsvReader.read(input, "big.csv")).isInstanceOf(LatencyCsvException.class)
                .hasMessage("big.csv:3: line is longer than 1024 characters; a row is from,to,rtt_ms with names of at most 256 characters");
    }

    @Test
    void aTwentyMegabyteNameInAFileIsRefusedWithoutEchoingIt() throws IOException {
        Path file = directory.resolve("name.csv");
        Files.writeString(file, "from,to,rtt_ms\n" + "n".repeat(20 << 20) + ",b,1\n");

        assertThatThrownBy(() -> LatencyCsvReader.read(file)).isInstanceOf(LatencyCsvException.class)
                .hasMessage(file + ":2: line is longer than 1024 characters; a row is from,to,rtt_ms with names of at most 256 characters");
    }

    @Test
    void aNameOverTheNameLimitIsCutInTheMessage() {
        String name = "m".repeat(300);

        assertThatThrownBy(() -> parse("from,to,rtt_ms\n" + name + ",b,1\n"))
                .hasMessage("test.csv:2: node name '" + "m".repeat(64) + "... (300 bytes)' in column from is longer than 256"
                        + " characters; use shorter names");
    }

    @Test
    void echoedFieldsAreCutAndEscaped() {
        assertThatThrownBy(() -> parse("from,to,rtt_ms\na,b," + "9".repeat(500) + "x\n"))
                .hasMessage("test.csv:2: rtt_ms '" + "9".repeat(64) + "... (501 bytes)' is not a number; expected milliseconds like 12.5");
        assertThatThrownBy(() -> parse("from,to,rtt_ms\na\u001b[2J,b\n"))
                .hasMessage("test.csv:2: expected 3 fields from,to,rtt_ms but found 2 in 'a\\u001b[2J,b' (names must not contain commas)");
        assertThatThrownBy(() -> parse("from,to,rtt_ms\na,b," + "9".repeat(400) + "\n"))
                .hasMessageStartingWith("test.csv:2: rtt_ms 99999").hasMessageEndingWith("is too large; expected milliseconds like 12.5");
    }

    @Test
    void devZeroIsRefusedQuickly() {
        Path zero = Path.of("/dev/zero");
        assumeTrue(Files.isReadable(zero), "no /dev/zero on this system");

        assertThatThrownBy(() -> LatencyCsvReader.read(zero)).isInstanceOf(LatencyCsvException.class)
                .hasMessage("/dev/zero:1: line is longer than 1024 characters; a row is from,to,rtt_ms with names of at most 256 characters");
    }

    @Test
    void aFifoWithNoWriterTimesOut() throws Exception {
        Path fifo = directory.resolve("fifo.csv");
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (IOException e) {
            assumeTrue(false, "mkfifo is not available");
            return;
        }
        assumeTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo failed");
        try {
            assertThatThrownBy(() -> LatencyCsvReader.read(fifo, Duration.ofMillis(300))).isInstanceOf(LatencyCsvException.class)
                    .hasMessage(fifo + ": could not be opened or gave no data within 300 ms (a FIFO or pipe with no writer?)");
        } finally {
            Files.newOutputStream(fifo).close(); // lets the reading thread parked in open() finish
        }
    }

    @Test
    void textThatIsNotUtf8IsRefusedWithItsLine() throws IOException {
        Path file = directory.resolve("latin1.csv");
        Files.write(file, "from,to,rtt_ms\na,b,1\nZ\u00fcrich,b,2\n".getBytes(StandardCharsets.ISO_8859_1));

        assertThatThrownBy(() -> LatencyCsvReader.read(file)).hasMessage(file + ":3: is not UTF-8 text");
    }

    @Test
    void moreNodesThanTheLimitAreRefused() {
        StringBuilder text = new StringBuilder("from,to,rtt_ms\n");
        for (int i = 1; i <= LatencyCsvReader.MAX_NODES; i++) {
            text.append("hub,n").append(i).append(",1\n");
        }

        assertThatThrownBy(() -> parse(text.toString())).hasMessage("test.csv:100001: more than 100000 nodes; a latency CSV names at"
                + " most 100000 (plan larger grids hierarchically, one CSV per group)");
    }

    @Test
    void aSparseFiveThousandNodeCsvBuildsOneDenseMatrix() throws IOException {
        int n = 5_000;
        Path file = directory.resolve("sparse.csv");
        Files.writeString(file, sparseCsv(n, 42));
        LatencyGraph graph = LatencyCsvReader.read(file);
        assertThat(graph.nodes()).hasSize(n);

        long before = allocatedBytes();
        LatencyMatrix matrix = graph.toMatrix();
        long allocated = allocatedBytes() - before;

        long oneMatrix = LatencyGraph.denseBytes(n);
        assertThat(allocated).as("bytes allocated building the dense view (one matrix is %d)", oneMatrix)
                .isBetween(oneMatrix, oneMatrix + oneMatrix / 4);
        assertThat(matrix.latency(matrix.indexOf("n0"), matrix.indexOf("n1"))).isEqualTo(graph.oneWayMs("n0", "n1"));
        assertThat(matrix.latency(7, 7)).isZero();
    }

    @Test
    void moreNodesThanTheDenseLimitAreRefusedBeforeAnyAllocation() {
        LatencyGraph.Builder builder = LatencyGraph.builder();
        for (int i = 0; i <= LatencyGraph.MAX_DENSE_NODES; i++) {
            builder.addNode("n" + i);
        }
        LatencyGraph graph = builder.build();

        assertThatThrownBy(graph::toMatrix).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("10001 nodes are too many for a dense latency matrix (at most 10000, which take 762 MiB); plan them"
                        + " hierarchically, one smaller matrix per group");
    }

    /** A ring through every node plus a few random chords: about 4 links per node, not n^2. */
    static String sparseCsv(int nodes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder text = new StringBuilder(LatencyCsvReader.HEADER).append('\n');
        for (int i = 0; i < nodes; i++) {
            text.append('n').append(i).append(",n").append((i + 1) % nodes).append(',').append(1 + random.nextInt(200)).append('\n');
            int chord = random.nextInt(nodes);
            if (chord != i && chord != (i + 1) % nodes && chord != (i + nodes - 1) % nodes) {
                text.append('n').append(i).append(",n").append(chord).append(',').append(1 + random.nextInt(200)).append('\n');
            }
        }
        return text.toString();
    }

    private static LatencyGraph parse(String text) {
        return LatencyCsvReader.read(new StringReader(text), "test.csv");
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
