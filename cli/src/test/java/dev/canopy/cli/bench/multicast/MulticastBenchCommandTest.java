package dev.canopy.cli.bench.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.cli.bench.namespaces.NamespaceSupport;
import dev.canopy.multicast.internal.fabric.udp.NetworkNamespaces;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** The JSON contract of {@code canopy bench multicast}, run small, and its input errors. */
class MulticastBenchCommandTest {

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void jsonHasEveryMethodAtEverySizeWithTheContractFields() {
        JsonObject report = run("--members", "4", "--sizes", "8,70000", "--fabric", "emulated-ud", "--loss", "0.05",
                "--skew-us", "100", "--iterations", "3", "--warmup", "1", "--back-to-back", "8", "--json");
        assertThat(report.getInteger("members")).isEqualTo(4);
        assertThat(report.getString("fabric")).isEqualTo("emulated-ud");
        assertThat(report.containsKey("fallback")).isTrue();
        assertThat(report.getString("fallback")).isNull();
        JsonArray results = report.getJsonArray("results");
        assertThat(results).hasSize(6);
        for (String method : List.of("multicast", "binomial", "pipelined")) {
            assertThat(results.stream().map(JsonObject.class::cast).filter(row -> row.getString("method").equals(method))
                    .map(row -> row.getInteger("bytes"))).as(method).containsExactlyInAnyOrder(8, 70000);
        }
        for (Object entry : results) {
            JsonObject row = (JsonObject) entry;
            assertThat(row.fieldNames()).contains("method", "bytes", "latency_median_ms", "latency_p90_ms",
                    "bcasts_per_s", "mb_per_s_per_receiver", "retransmissions_per_bcast", "acks_at_root_per_bcast");
            assertThat(row.getDouble("latency_median_ms")).isPositive();
            assertThat(row.getDouble("latency_p90_ms")).isGreaterThanOrEqualTo(row.getDouble("latency_median_ms"));
            assertThat(row.getDouble("bcasts_per_s")).isPositive();
            if (row.getString("method").equals("multicast")) {
                assertThat(row.getDouble("acks_at_root_per_bcast")).isPositive();
                assertThat(row.getDouble("retransmissions_per_bcast")).isGreaterThanOrEqualTo(0);
            } else {
                assertThat(row.getValue("retransmissions_per_bcast")).isNull();
            }
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void udpWithoutNamespacesSaysWhyAndFallsBack() {
        Supplier<Optional<String>> real = NamespaceSupport.unavailable;
        NamespaceSupport.unavailable = () -> Optional.of("real multicast runs need root (running as test)");
        try {
            JsonObject report = run("--members", "3", "--sizes", "1024", "--fabric", "udp", "--iterations", "2",
                    "--warmup", "0", "--back-to-back", "4", "--json");
            assertThat(report.getString("fabric")).isEqualTo("emulated-ud");
            assertThat(report.getString("fallback")).contains("--fabric udp").contains("need root")
                    .contains("emulated-ud");
            assertThat(report.getJsonArray("results")).hasSize(3);
        } finally {
            NamespaceSupport.unavailable = real;
        }
    }

    /**
     * As root: members in network namespaces of their own, real IP multicast; the namespaces are gone afterwards.
     * About 30 s of JVM starts on the shared machine, so exhaustive only.
     */
    @Test
    @Tag("exhaustive")
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void udpInNetworkNamespacesRunsOverRealMulticast() throws Exception {
        Optional<String> unavailable = NetworkNamespaces.unavailableReason();
        assumeTrue(unavailable.isEmpty(), () -> "skipped: " + unavailable.orElse(""));
        JsonObject report = run("--members", "3", "--sizes", "8,3000", "--fabric", "udp", "--iterations", "3",
                "--warmup", "1", "--back-to-back", "8", "--skew-us", "50", "--json");
        assertThat(report.getString("fabric")).isEqualTo("udp");
        assertThat(report.getString("fallback")).as("multicast worked between the namespaces").isNull();
        assertThat(report.getString("layer")).contains("multicast (udp)");
        JsonArray results = report.getJsonArray("results");
        assertThat(results).hasSize(6);
        for (Object entry : results) {
            JsonObject row = (JsonObject) entry;
            assertThat(row.getDouble("latency_median_ms")).as(row.encode()).isPositive();
            assertThat(row.getDouble("bcasts_per_s")).as(row.encode()).isPositive();
            assertThat(row.getValue("acks_at_root_per_bcast") != null).isEqualTo(row.getString("method").equals("multicast"));
        }
        assertThat(namespacesOfThisProcess()).as("namespaces left behind").isEmpty();
    }

    private static List<String> namespacesOfThisProcess() throws Exception {
        Process list = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String output = new String(list.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        list.waitFor(10, TimeUnit.SECONDS);
        String mine = NetworkNamespaces.PREFIX + ProcessHandle.current().pid() + "-";
        return output.lines().filter(line -> line.startsWith(mine)).toList();
    }

    @Test
    void badInputIsNamed() {
        StringWriter err = new StringWriter();
        int status = new CommandLine(new CanopyCommand()).setErr(new PrintWriter(err))
                .execute("bench", "multicast", "--fabric", "verbs");
        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("unknown fabric 'verbs'");
    }

    private static JsonObject run(String... options) {
        StringWriter out = new StringWriter();
        String[] args = new String[options.length + 2];
        args[0] = "bench";
        args[1] = "multicast";
        System.arraycopy(options, 0, args, 2, options.length);
        int status = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).execute(args);
        assertThat(status).isZero();
        return new JsonObject(out.toString());
    }
}
