package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.gridconfig.GridConfigs;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The JSON contract of {@code canopy bench collectives} that other tools rely on, and its input errors. */
class CollectivesBenchCommandTest {

    @TempDir
    Path directory;

    @Test
    void jsonHasOneResultPerAlgorithmAndSizeWithTheContractFields() throws Exception {
        Path config = twoSite();
        StringWriter out = new StringWriter();
        int status = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).execute("bench", "collectives",
                "--config", config.toString(), "--op", "bcast", "--sizes", "2,4096", "--algorithms", "flat,hlot",
                "--iterations", "2", "--root-site", "beta", "--json");
        assertThat(status).isZero();
        JsonObject report = new JsonObject(out.toString());
        assertThat(report.getString("root_site")).isEqualTo("beta");
        assertThat(report.getInteger("root")).isBetween(0, 3);
        JsonArray results = report.getJsonArray("results");
        assertThat(results).hasSize(4);
        for (Object entry : results) {
            JsonObject row = (JsonObject) entry;
            assertThat(row.fieldNames()).contains("algorithm", "bytes", "median_ms", "p90_ms", "predicted_ms", "lower_bound_ms");
            assertThat(row.getDouble("median_ms")).isPositive();
            assertThat(row.getDouble("p90_ms")).isGreaterThanOrEqualTo(row.getDouble("median_ms"));
            // Two sites 40 ms RTT apart: every bcast crosses the WAN once.
            assertThat(row.getDouble("lower_bound_ms")).isGreaterThanOrEqualTo(20);
        }
    }

    @Test
    void badArgumentsExitTwoNamingTheFix() throws Exception {
        Path config = twoSite();
        assertBadInput("unknown algorithm 'fast'", "--config", config.toString(), "--algorithms", "fast");
        assertBadInput("unknown operation 'broadcast'", "--config", config.toString(), "--op", "broadcast");
        assertBadInput("--root or --root-site, not both", "--config", config.toString(), "--root", "1", "--root-site", "beta");
        assertBadInput("does not exist", "--config", directory.resolve("missing.rsl").toString());
    }

    private void assertBadInput(String message, String... args) {
        StringWriter err = new StringWriter();
        String[] command = new String[args.length + 2];
        command[0] = "bench";
        command[1] = "collectives";
        System.arraycopy(args, 0, command, 2, args.length);
        int status = new CommandLine(new CanopyCommand()).setErr(new PrintWriter(err)).execute(command);
        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains(message);
    }

    private Path twoSite() throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        return config;
    }
}
