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
        // planned and predicted with LogGP measured on this grid: a WAN hop is the 20 ms emulated and more
        JsonObject loggp = report.getJsonObject("loggp");
        assertThat(loggp.getString("source")).isEqualTo("measure");
        assertThat(loggp.getDouble("overhead_ms")).isPositive();
        assertThat(loggp.getJsonObject("latency_ms").getDouble("heavy_wan")).isBetween(15.0, 200.0);
        assertThat(report.getInteger("shared_cores")).as("each node its own CPU unless asked").isZero();
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
    void onThinUplinksAutoIsPlannedForTheSizeAndPredictedToBeatTheStar() throws Exception {
        Path config = directory.resolve("thin.rsl");
        Files.writeString(config, GridConfigs.bundledText("thin-uplinks-10site.rsl"));
        StringWriter out = new StringWriter();
        int status = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).execute("bench", "collectives",
                "--config", config.toString(), "--sizes", "1048576", "--algorithms", "flat,auto",
                "--iterations", "1", "--warmup", "0", "--json");
        assertThat(status).isZero();
        JsonArray results = new JsonObject(out.toString()).getJsonArray("results");
        double flat = results.getJsonObject(0).getDouble("predicted_ms");
        double auto = results.getJsonObject(1).getDouble("predicted_ms");
        // nine 1 MB copies through the root's 200 Mb/s uplink take 377 ms; auto spreads them
        assertThat(flat).isGreaterThan(377);
        assertThat(auto).isLessThan(0.7 * flat).isGreaterThanOrEqualTo(results.getJsonObject(1).getDouble("lower_bound_ms"));
    }

    @Test
    void alltoallRunsEveryExchangeRouteOnTheSameGridSideBySide() throws Exception {
        Path config = twoSite();
        StringWriter out = new StringWriter();
        int status = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).execute("bench", "collectives",
                "--config", config.toString(), "--op", "alltoall", "--exchange", "relayed,sites,PAIRWISE", "--sizes", "64",
                "--algorithms", "hlot", "--iterations", "2", "--json");
        assertThat(status).isZero();
        JsonObject report = new JsonObject(out.toString());
        assertThat(report.getString("op")).isEqualTo("alltoall");
        JsonArray results = report.getJsonArray("results");
        assertThat(results).hasSize(3);
        assertThat(results.stream().map(row -> ((JsonObject) row).getString("exchange")))
                .containsExactly("relayed", "sites", "pairwise");
        for (Object entry : results) {
            JsonObject row = (JsonObject) entry;
            assertThat(row.getInteger("bytes")).isEqualTo(64);
            // Every route carries blocks across the 40 ms RTT link (20 ms one way; the emulator may run ~1 ms fast).
            assertThat(row.getDouble("median_ms")).isGreaterThan(15);
            assertThat(row.getDouble("p90_ms")).isGreaterThanOrEqualTo(row.getDouble("median_ms"));
        }
    }

    @Test
    void allreduceRunsPipelinedAndWholeSideBySide() throws Exception {
        Path config = twoSite();
        StringWriter out = new StringWriter();
        int status = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).execute("bench", "collectives",
                "--config", config.toString(), "--op", "allreduce", "--pipeline", "on,OFF", "--sizes", "65536",
                "--algorithms", "hlot", "--iterations", "2", "--json");
        assertThat(status).isZero();
        JsonArray results = new JsonObject(out.toString()).getJsonArray("results");
        assertThat(results.stream().map(row -> ((JsonObject) row).getString("pipeline"))).containsExactly("on", "off");
        for (Object entry : results) {
            // Up and down across the 40 ms RTT link (20 ms one way; the emulator may run ~1 ms fast).
            assertThat(((JsonObject) entry).getDouble("median_ms")).isGreaterThan(35);
        }
        assertThat(BenchTable.format(new JsonObject(out.toString())).lines().skip(1).findFirst().orElseThrow())
                .matches("algorithm\\s+pipeline\\s+bytes\\s+median_ms.*");
    }

    @Test
    void theTableShowsTheExchangeColumnOnlyWhenRowsHaveOne() {
        JsonObject row = new JsonObject().put("algorithm", "hlot").put("bytes", 64).put("median_ms", 21.5).put("p90_ms", 23.0)
                .put("predicted_ms", 20.1).put("lower_bound_ms", 20.0);
        JsonObject report = new JsonObject().put("op", "alltoall").put("root", 0).put("root_site", "alpha").put("processes", 4)
                .put("iterations", 2).put("date", "2026-11-22T10:00:00Z");
        String plain = BenchTable.format(report.copy().put("results", new JsonArray().add(row)));
        String routed = BenchTable.format(report.copy().put("results", new JsonArray().add(row.copy().put("exchange", "pairwise"))));
        assertThat(plain).doesNotContain("exchange").contains("hlot", "21.50");
        assertThat(routed.lines().skip(1).findFirst().orElseThrow()).matches("algorithm\\s+exchange\\s+bytes\\s+median_ms.*");
        assertThat(routed.lines().skip(2).findFirst().orElseThrow()).matches("hlot\\s+pairwise\\s+64\\s+21\\.50\\s+23\\.00.*");
    }

    @Test
    void badArgumentsExitTwoNamingTheFix() throws Exception {
        Path config = twoSite();
        assertBadInput("unknown algorithm 'fast'", "--config", config.toString(), "--algorithms", "fast");
        assertBadInput("unknown operation 'broadcast'", "--config", config.toString(), "--op", "broadcast");
        assertBadInput("--root or --root-site, not both", "--config", config.toString(), "--root", "1", "--root-site", "beta");
        assertBadInput("--loggp must be measure or defaults, got 'guess'", "--config", config.toString(), "--loggp", "guess");
        assertBadInput("--shared-cores must be 0 (each node its own CPU) or more, got -2", "--config", config.toString(),
                "--shared-cores", "-2");
        assertBadInput("does not exist", "--config", directory.resolve("missing.rsl").toString());
        assertBadInput("unknown exchange 'tree'; choose from [auto, relayed, sites, pairwise]", "--config", config.toString(),
                "--op", "alltoall", "--exchange", "sites,tree");
        assertBadInput("--exchange names a route twice", "--config", config.toString(), "--op", "alltoallv",
                "--exchange", "pairwise,Pairwise");
        assertBadInput("--exchange applies to alltoall and alltoallv only, not bcast", "--config", config.toString(),
                "--exchange", "pairwise");
        assertBadInput("unknown pipeline setting 'segmented'; choose from [on, off]", "--config", config.toString(),
                "--pipeline", "on,segmented");
        assertBadInput("--pipeline names a setting twice", "--config", config.toString(), "--pipeline", "off,OFF");
        assertBadInput("--pipeline applies to bcast, reduce, allreduce and reduce_scatter, not scan", "--config",
                config.toString(), "--op", "scan", "--pipeline", "off");
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
