package dev.canopy.cli.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.GridConfigs;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code levels --config} and {@code links} on the bundled 8-site MPICH-GX level file. */
class TopologyLevelFileContractTest {

    @TempDir
    Path dir;

    private Path levelFile;
    private Path siteCsv;

    @BeforeEach
    void writeFiles() throws IOException {
        levelFile = Files.writeString(dir.resolve("8site.rsl"), GridConfigs.bundledText(GridConfigs.DEFAULT_EXAMPLE));
        CliRun links = CliRun.of("topology", "links", "--config", levelFile.toString());
        assertThat(links.exitCode()).as(links.err()).isZero();
        siteCsv = Files.writeString(dir.resolve("8site.csv"), links.out());
    }

    @Test
    void linksPrintEveryOrderedSitePairWithItsDirection() throws IOException {
        assertThat(Files.readAllLines(siteCsv)).hasSize(1 + 8 * 7)
                .contains("from,to,rtt_ms", "yonsei-a,kisti-a,380.0", "kisti-a,yonsei-a,240.0", "kut-a,kisti-a,11.8");
    }

    @Test
    void siteNodesTakeTheLevelFilesCoordinates() {
        JsonObject result = levels("--latency", siteCsv.toString(), "--config", levelFile.toString());
        assertThat(result.getString("source")).isEqualTo("config");
        JsonArray lightWan = result.getJsonObject("levels").getJsonArray("light_wan");
        assertThat(lightWan).hasSize(4);
        assertThat(lightWan.getJsonArray(0).stream().map(String::valueOf)).containsExactly("yonsei-a", "yonsei-b");
        assertThat(result.getJsonObject("threshold_rtt_ms").getDouble("light_wan")).isEqualTo(10.0);
    }

    @Test
    void unnamedNodesAreDerivedWithTheFilesThresholds() throws IOException {
        Path renamed = Files.writeString(dir.resolve("renamed.csv"), Files.readString(siteCsv).replace("yonsei", "seoul")
                .replace("ajou", "suwon").replace("kut", "cheonan").replace("kisti", "daejeon"));
        JsonObject result = levels("--latency", renamed.toString(), "--config", levelFile.toString());
        assertThat(result.getString("source")).isEqualTo("derived");
        assertThat(result.getJsonObject("levels").getJsonArray("light_wan")).as("10 ms light-WAN threshold of the file").hasSize(4);
    }

    @Test
    void partlyNamedNodesOrAnInvalidLevelFileExitWithTwo() throws IOException {
        Path mixed = Files.writeString(dir.resolve("mixed.csv"), "from,to,rtt_ms\nyonsei-a,elsewhere,30\n");
        CliRun partly = CliRun.of("topology", "levels", "--latency", mixed.toString(), "--config", levelFile.toString());
        assertThat(partly.exitCode()).isEqualTo(2);
        assertThat(partly.err()).contains("1 of 2 latency nodes are neither a host nor a site", "'elsewhere'");
        Path broken = Files.writeString(dir.resolve("broken.rsl"), "( &(type = grid) (name = ");
        CliRun invalid = CliRun.of("topology", "levels", "--latency", siteCsv.toString(), "--config", broken.toString());
        assertThat(invalid.exitCode()).isEqualTo(2);
        assertThat(invalid.err()).contains("broken.rsl is not a valid level file", "broken.rsl:1:");
    }

    private static JsonObject levels(String... options) {
        String[] args = new String[options.length + 3];
        args[0] = "topology";
        args[1] = "levels";
        System.arraycopy(options, 0, args, 2, options.length);
        args[args.length - 1] = "--json";
        CliRun run = CliRun.of(args);
        assertThat(run.exitCode()).as(run.err()).isZero();
        return new JsonObject(run.out());
    }
}
