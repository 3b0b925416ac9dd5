package dev.canopy.cli.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.GridConfigs;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JSON keys of {@code canopy config show --json} are a contract; these tests pin them. */
class ConfigShowCommandTest {

    private static final Path EXAMPLES = ConfigCheckCommandTest.EXAMPLES;

    private static JsonObject showJson(Path file) {
        ConfigCli run = ConfigCli.run("config", "show", file.toString(), "--json");
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        // Json.CODEC rather than new JsonObject(String): that overload set drags in Buffer, whose
        // codegen annotations are not on the classpath (a compiler warning, so a build error)
        return (JsonObject) Json.CODEC.fromString(run.out(), Object.class);
    }

    @Test
    void jsonHasExactlyTheContractKeysAtEveryDepth() {
        JsonObject grid = showJson(EXAMPLES.resolve("mpich-gx-8site.rsl"));

        assertThat(grid.fieldNames()).containsExactlyInAnyOrder(
                "name", "default_rtt_ms", "levels", "thresholds_ms", "subjobs", "links", "processes");
        assertThat(grid.getJsonObject("levels").fieldNames())
                .containsExactlyInAnyOrder("heavy_wan", "light_wan", "lan", "cluster", "host");
        assertThat(grid.getJsonObject("thresholds_ms").fieldNames())
                .containsExactlyInAnyOrder("host", "cluster", "lan", "light_wan");
        JsonObject subjob = grid.getJsonArray("subjobs").getJsonObject(0);
        assertThat(subjob.fieldNames()).containsExactlyInAnyOrder("label", "count", "hosts", "wan_group", "site", "lan_id",
                "cluster", "fabric", "uplink_mbps", "nic_mbps", "environment", "gram");
        assertThat(subjob.getJsonArray("hosts").getJsonObject(0).fieldNames()).containsExactlyInAnyOrder("name", "slots");
        assertThat(grid.getJsonArray("links").getJsonObject(0).fieldNames())
                .containsExactlyInAnyOrder("a", "b", "rtt_ms", "jitter_ms", "loss", "bandwidth_mbps", "one_way");
    }

    @Test
    void jsonCarriesTheValuesOfTheFile() {
        JsonObject grid = showJson(EXAMPLES.resolve("mpich-gx-8site.rsl"));

        assertThat(grid.getString("name")).isEqualTo("mpich-gx-8site");
        assertThat(grid.getInteger("processes")).isEqualTo(32);
        assertThat(grid.getJsonObject("levels").getString("heavy_wan")).isEqualTo("hlot");
        assertThat(grid.getJsonObject("thresholds_ms").getDouble("light_wan")).isEqualTo(10.0);
        JsonObject yonsei = grid.getJsonArray("subjobs").getJsonObject(0);
        assertThat(yonsei.getString("label")).isEqualTo("yonsei-a");
        assertThat(yonsei.getJsonArray("hosts").getJsonObject(0))
                .isEqualTo(new JsonObject().put("name", "ya1.yonsei.example").put("slots", 2));
        assertThat(yonsei.getString("fabric")).isEqualTo("ib");
        assertThat(yonsei.getDouble("uplink_mbps")).isEqualTo(1000.0);
        assertThat(yonsei.getJsonObject("environment")).isEqualTo(new JsonObject().put("CANOPY_ORGANISATION", "yonsei"));
        assertThat(yonsei.getJsonObject("gram").getJsonArray("executable"))
                .isEqualTo(new JsonArray().add("/opt/canopy/bin/bcast-bench"));
        JsonObject oneWay = grid.getJsonArray("links").getJsonObject(27);
        assertThat(oneWay.getString("a")).isEqualTo("yonsei-a");
        assertThat(oneWay.getString("b")).isEqualTo("kisti-a");
        assertThat(oneWay.getDouble("rtt_ms")).isEqualTo(380.0);
        assertThat(oneWay.getBoolean("one_way")).isTrue();
    }

    @Test
    void jsonFillsInDefaultsAndWritesUnlimitedAsNull() {
        JsonObject grid = showJson(EXAMPLES.resolve("two-site.rsl"));

        assertThat(grid.getString("name")).isEqualTo("two-site");
        assertThat(grid.getDouble("default_rtt_ms")).isEqualTo(100.0);
        assertThat(grid.getJsonObject("levels")).isEqualTo(new JsonObject().put("heavy_wan", "hlot").put("light_wan", "flat")
                .put("lan", "multicast").put("cluster", "fabric_multicast").put("host", "local"));
        assertThat(grid.getJsonObject("thresholds_ms")).isEqualTo(new JsonObject().put("host", 0.05).put("cluster", 0.3)
                .put("lan", 2.0).put("light_wan", 30.0));
        JsonObject alpha = grid.getJsonArray("subjobs").getJsonObject(0);
        assertThat(alpha.containsKey("uplink_mbps")).isTrue();
        assertThat(alpha.getValue("uplink_mbps")).isNull();
        assertThat(alpha.getString("wan_group")).isEqualTo("alpha");
        assertThat(alpha.getString("fabric")).isEqualTo("none");
        assertThat(alpha.getJsonObject("gram")).isEqualTo(new JsonObject());
        JsonObject link = grid.getJsonArray("links").getJsonObject(0);
        assertThat(link.containsKey("bandwidth_mbps")).isTrue();
        assertThat(link.getValue("bandwidth_mbps")).isNull();
        assertThat(link.getDouble("jitter_ms")).isZero();
        assertThat(link.getBoolean("one_way")).isFalse();
        assertThat(grid.getInteger("processes")).isEqualTo(4);
    }

    @Test
    void mpichG2FileShowsItsGramAttributesAndDerivedSites() {
        JsonObject grid = showJson(EXAMPLES.resolve("mpich-g2.rsl"));

        JsonObject first = grid.getJsonArray("subjobs").getJsonObject(0);
        assertThat(first.getString("site")).isEqualTo("grid.yonsei.example");
        assertThat(first.getString("lan_id")).isEqualTo("yonsei-lan");
        assertThat(first.getJsonObject("gram").getJsonArray("arguments")).isEqualTo(new JsonArray().add("-n").add("2"));
        assertThat(first.getJsonObject("environment").getString("GLOBUS_DUROC_SUBJOB_INDEX")).isEqualTo("0");
    }

    @Test
    void withoutJsonShowPrintsCanonicalRslThatReadsBackToTheSameModel() {
        Path file = EXAMPLES.resolve("mpich-g2.rsl");

        ConfigCli run = ConfigCli.run("config", "show", file.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(GridConfigs.parse(run.out(), "shown.rsl").orElseThrow())
                .isEqualTo(GridConfigs.load(file).orElseThrow());
    }

    @Test
    void invalidFileShowsErrorsNotAModel(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("bad.rsl");
        Files.writeString(file, "+ ( &(type = subjob) (count = 2) (fabric = infiniband) )");

        ConfigCli run = ConfigCli.run("config", "show", file.toString(), "--json");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith(file + ":1:44: error: unknown fabric \"infiniband\"");
    }
}
