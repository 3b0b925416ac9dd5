package dev.canopy.cli.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JSON contract of {@code canopy topology plan}, checked on the shared data. */
class TopologyPlanContractTest {

    private static final List<String> ALGORITHMS = List.of("flat", "binomial", "mst", "hlot", "spt", "ecef", "auto");
    private static final Path PLANETLAB = CliRun.sharedLatency("planetlab490_first64.csv");
    private static final Path AZURE = CliRun.sharedLatency("azure_p50_27regions.csv");

    @TempDir
    Path dir;

    @Test
    void everyAlgorithmPlansEverySharedFileWithTheContractKeys() {
        for (Path file : List.of(PLANETLAB, AZURE)) {
            String root = file == AZURE ? "West US 2" : "pl010";
            for (String algorithm : ALGORITHMS) {
                for (String overhead : List.of("0", "1.5")) {
                    JsonObject plan = planJson("--latency", file.toString(), "--root", root, "--algorithm", algorithm,
                            "--overhead-ms", overhead, "--json");
                    assertContract(plan, algorithm, root, Double.parseDouble(overhead), file == AZURE ? 27 : 64);
                }
            }
        }
    }

    @Test
    void hlotNeverArrivesLaterThanTheDirectLink() throws IOException {
        JsonObject plan = planJson("--latency", PLANETLAB.toString(), "--root", "pl001", "--algorithm", "hlot", "--json");
        Map<String, Double> directRtt = new HashMap<>();
        for (String line : Files.readAllLines(PLANETLAB).subList(1, 64)) {
            String[] fields = line.split(",");
            directRtt.put(fields[1], Double.parseDouble(fields[2]));
        }
        JsonObject arrivals = plan.getJsonObject("arrival_ms");
        directRtt.forEach((node, rtt) -> assertThat(arrivals.getDouble(node)).isLessThanOrEqualTo(rtt / 2));
        assertThat(plan.getDouble("predicted_completion_ms")).isLessThanOrEqualTo(plan.getDouble("flat_completion_ms"));
    }

    @Test
    void messageSizeAndOverheadChangeTheModelDrivenTree() {
        JsonObject small = planJson("--latency", PLANETLAB.toString(), "--root", "pl001", "--algorithm", "ecef", "--json");
        JsonObject large = planJson("--latency", PLANETLAB.toString(), "--root", "pl001", "--algorithm", "ecef",
                "--message-bytes", "1000000", "--overhead-ms", "2", "--json");
        assertThat(large.getJsonArray("edges")).isNotEqualTo(small.getJsonArray("edges"));
        assertThat(large.getJsonObject("cost_model").getLong("message_bytes")).isEqualTo(1_000_000L);
        assertThat(large.getJsonObject("cost_model").getDouble("per_byte_ms")).isCloseTo(0.00008, within(1e-12));
    }

    @Test
    void flatCompletionIsNullWithoutEveryDirectLinkFromTheRoot() throws IOException {
        Path holes = write("from,to,rtt_ms\nr,a,10\na,b,20\nr,c,30\n");
        JsonObject plan = planJson("--latency", holes.toString(), "--root", "r", "--algorithm", "hlot", "--json");
        assertThat(plan.containsKey("flat_completion_ms")).isTrue();
        assertThat(plan.getValue("flat_completion_ms")).isNull();
        assertThat(plan.getJsonObject("arrival_ms").getDouble("b")).isEqualTo(15.0);
        assertContract(plan, "hlot", "r", 0, 4);
    }

    @Test
    void badInputExitsWithTwoAndAClearMessage() throws IOException {
        Path good = write("from,to,rtt_ms\nr,a,10\na,b,20\n");
        assertBadInput(List.of("--latency", good.toString(), "--root", "nobody", "--algorithm", "hlot"), "unknown root 'nobody'");
        assertBadInput(List.of("--latency", good.toString(), "--root", "r", "--algorithm", "fastest"), "unknown --algorithm 'fastest'");
        assertBadInput(List.of("--latency", write("src,dst,rtt\n").toString(), "--root", "r", "--algorithm", "hlot"),
                ":1: header is 'src,dst,rtt'; expected exactly from,to,rtt_ms");
        assertBadInput(List.of("--latency", write("from,to,rtt_ms\nr,a,10\nr,b,slow\n").toString(), "--root", "r",
                "--algorithm", "hlot"), ":3: rtt_ms 'slow' is not a number");
        assertBadInput(List.of("--latency", write("from,to,rtt_ms\nr,a,-1\n").toString(), "--root", "r", "--algorithm", "hlot"),
                ":2: rtt_ms -1 is negative");
        assertBadInput(List.of("--latency", write("from,to,rtt_ms\nr,a,10\nb,c,5\n").toString(), "--root", "r",
                "--algorithm", "spt"), "node 'b' cannot be reached");
        assertBadInput(List.of("--latency", good.toString(), "--root", "r", "--algorithm", "flat"),
                "node 'b' cannot be reached: a flat tree needs the link 'r' -> 'b'");
        assertBadInput(List.of("--latency", dir.resolve("missing.csv").toString(), "--root", "r", "--algorithm", "hlot"),
                "missing.csv: no such file");
        assertBadInput(List.of("--latency", good.toString(), "--root", "r", "--algorithm", "hlot", "--overhead-ms", "-1"),
                "--overhead-ms must be a number >= 0");
    }

    private void assertBadInput(List<String> options, String expectedMessage) {
        String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of("topology", "plan"), options.stream())
                .toArray(String[]::new);
        CliRun run = CliRun.of(args);
        assertThat(run.exitCode()).as("exit status of %s", options).isEqualTo(2);
        assertThat(run.err()).startsWith("canopy topology plan: ").contains(expectedMessage).doesNotContain("\tat ");
        assertThat(run.out()).isEmpty();
    }

    private Path write(String csv) throws IOException {
        Path file = Files.createTempFile(dir, "latency", ".csv");
        return Files.writeString(file, csv);
    }

    static JsonObject planJson(String... options) {
        String[] args = new String[options.length + 2];
        args[0] = "topology";
        args[1] = "plan";
        System.arraycopy(options, 0, args, 2, options.length);
        CliRun run = CliRun.of(args);
        assertThat(run.exitCode()).as("stderr: %s", run.err()).isZero();
        return new JsonObject(run.out());
    }

    /** Keys, spanning, send order and the cost model, all read back from the JSON alone. */
    static void assertContract(JsonObject plan, String algorithm, String root, double overheadMs, int nodes) {
        assertThat(plan.fieldNames()).contains("algorithm", "root", "nodes", "edges", "arrival_ms", "predicted_completion_ms",
                "lower_bound_ms", "flat_completion_ms");
        assertThat(plan.getString("algorithm")).isEqualTo(algorithm);
        assertThat(plan.getString("root")).isEqualTo(root);
        assertThat(plan.getInteger("nodes")).isEqualTo(nodes);
        JsonArray edges = plan.getJsonArray("edges");
        assertThat(edges).hasSize(nodes - 1);
        JsonObject arrivals = plan.getJsonObject("arrival_ms");
        assertThat(arrivals.size()).isEqualTo(nodes);
        assertThat(arrivals.getDouble(root)).isZero();
        Set<String> children = new HashSet<>();
        Map<String, Integer> sendsSoFar = new HashMap<>();
        double completion = 0;
        for (Object item : edges) {
            JsonObject edge = (JsonObject) item;
            String parent = edge.getString("parent");
            String child = edge.getString("child");
            assertThat(children.add(child)).as("%s has one parent", child).isTrue();
            int k = sendsSoFar.merge(parent, 1, Integer::sum);
            assertThat(arrivals.getDouble(child)).as("arrival of %s, child %d of %s", child, k, parent)
                    .isCloseTo(arrivals.getDouble(parent) + k * overheadMs + edge.getDouble("latency_ms"), within(1e-9));
            completion = Math.max(completion, arrivals.getDouble(child));
        }
        assertThat(children).doesNotContain(root).hasSize(nodes - 1);
        assertThat(plan.getDouble("predicted_completion_ms")).isCloseTo(completion, within(1e-9));
        assertThat(plan.getDouble("lower_bound_ms")).isLessThanOrEqualTo(completion + 1e-9);
    }
}
