package dev.canopy.cli.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyMain;
import dev.canopy.topology.internal.graph.LatencyCsvReader;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sparse 5,000-node latency CSV (a ring plus random chords, seeded) planned by {@code canopy topology
 * plan} in a JVM of moderate heap: the dense view (200 MB) is built once, so 320 MB of heap is enough
 * where two copies ran out of memory; with too little heap the command says how much it needs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LargeLatencyInputTest {

    private static final int NODES = 5_000;
    private static final long SEED = 20_261_125L;

    @TempDir
    Path directory;

    private record Child(int status, String out, String err) {
    }

    @Test
    void aSparseFiveThousandNodeCsvIsPlannedWithThreeHundredTwentyMegabytesOfHeap() throws Exception {
        Path csv = sparseCsv();

        Child child = canopy("-Xmx320m", "topology", "plan", "--latency", csv.toString(), "--root", "n0", "--algorithm", "spt",
                "--json");

        assertThat(child.status()).as("seed %d; stderr: %s", SEED, child.err()).isZero();
        JsonObject plan = new JsonObject(child.out());
        assertThat(plan.getInteger("nodes")).isEqualTo(NODES);
        assertThat(plan.getJsonObject("arrival_ms").size()).isEqualTo(NODES);
    }

    @Test
    void tooLittleHeapForTheDenseViewIsBadInputNamingTheHeapNeeded() throws Exception {
        Path csv = sparseCsv();

        Child child = canopy("-Xmx160m", "topology", "plan", "--latency", csv.toString(), "--root", "n0", "--algorithm", "spt");

        assertThat(child.status()).as("seed %d; stderr: %s", SEED, child.err()).isEqualTo(2);
        assertThat(child.err().lines().filter(line -> line.startsWith("canopy "))).singleElement().asString()
                .startsWith("canopy topology plan: " + csv + ": 5000 nodes need a dense latency matrix of 190 MiB, more than"
                        + " this JVM's heap of ")
                .endsWith("allows; run with more heap (CANOPY_JAVA_OPTS=-Xmx256m) or plan fewer nodes");
    }

    @Test
    void theHeapCheckSuggestsEnoughHeap() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LatencyInput.requireHeapFor(Path.of("f.csv"), 10_000, 512L << 20))
                .hasMessage("f.csv: 10000 nodes need a dense latency matrix of 762 MiB, more than this JVM's heap of 512 MiB"
                        + " allows; run with more heap (CANOPY_JAVA_OPTS=-Xmx1024m) or plan fewer nodes");
        LatencyInput.requireHeapFor(Path.of("f.csv"), 5_000, 320L << 20);
    }

    /** Every node on a ring (so a tree reaches all), about one random chord each: ~2 links per node, not n^2. */
    private Path sparseCsv() throws IOException {
        SplittableRandom random = new SplittableRandom(SEED);
        StringBuilder text = new StringBuilder(LatencyCsvReader.HEADER).append('\n');
        for (int i = 0; i < NODES; i++) {
            int next = (i + 1) % NODES;
            text.append('n').append(i).append(",n").append(next).append(',').append(1 + random.nextInt(300)).append('\n');
            int chord = random.nextInt(NODES);
            if (chord != i && chord != next && (chord + 1) % NODES != i) {
                text.append('n').append(i).append(",n").append(chord).append(',').append(1 + random.nextInt(300)).append('\n');
            }
        }
        Path csv = directory.resolve("sparse-5000.csv");
        Files.writeString(csv, text, StandardCharsets.UTF_8);
        return csv;
    }

    private Child canopy(String heap, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), heap,
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), CanopyMain.class.getName()));
        command.addAll(List.of(args));
        Path out = directory.resolve("out.txt");
        Path err = directory.resolve("err.txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(100, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("canopy " + String.join(" ", args) + " did not finish within 100 s");
        }
        return new Child(process.exitValue(), Files.readString(out), Files.readString(err));
    }
}
