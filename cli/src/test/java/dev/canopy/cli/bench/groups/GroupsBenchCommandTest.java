package dev.canopy.cli.bench.groups;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** {@code canopy bench groups}: the JSON contract of the issue, on a small run, and bad input named. */
class GroupsBenchCommandTest {

    @Test
    @Timeout(300)
    void jsonHasTheContractsKeysForEveryPolicyAndOperation() {
        StringWriter out = new StringWriter();
        int status = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).execute("bench", "groups",
                "--members", "6", "--sizes", "10,1000", "--iterations", "1", "--warmup", "0", "--json");
        assertThat(status).as(out.toString()).isZero();
        JsonObject report = new JsonObject(out.toString().substring(out.toString().indexOf('{')));
        assertThat(report.getInteger("members")).isEqualTo(6);
        assertThat(report.getString("fabric")).isEqualTo("emulated-ud");
        assertThat(report.getString("members_note")).contains("fewer than the seed's 29");
        JsonArray results = report.getJsonArray("results");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < results.size(); i++) {
            JsonObject row = results.getJsonObject(i);
            if (row.getString("policy").equals("auto")) {
                // What auto resolved each call of the cell to: one iteration, no warm-up, so one call.
                assertThat(row.getJsonObject("auto_choices").fieldNames()).hasSize(1).isSubsetOf("static", "dynamic",
                        "tree");
                assertThat(row.getJsonObject("auto_choices").stream()
                        .mapToLong(entry -> ((Number) entry.getValue()).longValue()).sum()).isEqualTo(1);
                row.remove("auto_choices");
            }
            assertThat(row.fieldNames()).containsExactlyInAnyOrder("policy", "operation", "bytes_per_receiver", "median_ms",
                    "avg_completion_ms", "max_completion_ms");
            assertThat(row.getDouble("max_completion_ms")).isGreaterThanOrEqualTo(row.getDouble("avg_completion_ms"));
            assertThat(row.getDouble("avg_completion_ms")).isPositive();
            seen.add(row.getString("operation") + "/" + row.getString("policy") + "/" + row.getInteger("bytes_per_receiver"));
        }
        // 4 operations x 5 policies x 2 sizes.
        assertThat(seen).hasSize(40).contains("scatter-1-to-5/dynamic/10", "scatterv/persistent/1000", "bcast/auto/10",
                "scatter/tree/1000");
        JsonArray management = report.getJsonArray("management");
        assertThat(management).hasSize(4);
        JsonObject dynamic = management.getJsonObject(0);
        assertThat(dynamic.getString("policy")).isEqualTo("dynamic");
        assertThat(dynamic.getDouble("create_ms")).isPositive();
        assertThat(dynamic.getDouble("destroy_ms")).isPositive();
        assertThat(report.getString("auto_model")).startsWith("policy costs measured one-to-5");
        assertThat(report.getString("auto_calibrated")).startsWith("policy costs measured one-to-5");
    }

    @Test
    void everyIterationRunsEveryPolicyOnceAndEachFollowsEveryOtherAlike() {
        int n = GroupsBenchRun.POLICIES.size();
        for (String operation : GroupsBenchRun.OPERATIONS) {
            int[][] follows = new int[n][n];
            Set<Integer> firsts = new HashSet<>();
            for (int iteration = 0; iteration < 2 * n; iteration++) {
                List<Integer> order = GroupsBenchRun.order(7, operation, 100, iteration);
                assertThat(order).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
                firsts.add(order.get(0));
                for (int i = 1; i < n; i++) {
                    follows[order.get(i - 1)][order.get(i)]++;
                }
            }
            // Interleaved, not one policy's block after another, and balanced: each right after each other twice.
            assertThat(firsts).as(operation).hasSize(n);
            for (int before = 0; before < n; before++) {
                for (int after = 0; after < n; after++) {
                    assertThat(follows[before][after]).as("%s: %d after %d", operation, after, before)
                            .isEqualTo(before == after ? 0 : 2);
                }
            }
        }
        assertThat(GroupsBenchRun.order(7, "bcast", 100, -1)).as("warm-up iterations too")
                .isEqualTo(GroupsBenchRun.order(7, "bcast", 100, 2 * n - 1));
    }

    @Test
    void badInputIsNamedWithExitStatus2() {
        for (String[] args : new String[][] {{"--fabric", "verbs"}, {"--members", "2"}, {"--operations", "gather"},
                {"--sizes=-1"}}) {
            StringWriter err = new StringWriter();
            String[] full = new String[args.length + 2];
            full[0] = "bench";
            full[1] = "groups";
            System.arraycopy(args, 0, full, 2, args.length);
            int status = new CommandLine(new CanopyCommand()).setErr(new PrintWriter(err)).execute(full);
            assertThat(status).as(String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString()).startsWith("canopy bench groups: ");
        }
    }
}
