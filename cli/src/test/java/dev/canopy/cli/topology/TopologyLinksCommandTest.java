package dev.canopy.cli.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.topology.internal.graph.LatencyCsvReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code canopy topology links}: a level file's RTTs as a latency CSV that reads back, or a clear refusal. */
class TopologyLinksCommandTest {

    @TempDir
    Path directory;

    @Test
    void theCsvReadsBackWithEverySitePair() throws Exception {
        Path config = directory.resolve("two.rsl");
        Files.writeString(config, "+ ( &(type = subjob) (site = \"West US 2\") ) ( &(type = subjob) (site = b) )"
                + " ( &(type = link) (between = \"West US 2\" b) (rtt_ms = 40) )");

        CliRun run = CliRun.of("topology", "links", "--config", config.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(LatencyCsvReader.read(new StringReader(run.out()), "links").oneWayMs("West US 2", "b")).isEqualTo(20.0);
    }

    @Test
    void aSiteNameTheCsvCannotHoldIsRefused() throws Exception {
        Path config = directory.resolve("comma.rsl");
        Files.writeString(config, "+ ( &(type = subjob) (site = \"a,b\") ) ( &(type = subjob) (site = c) )");

        CliRun run = CliRun.of("topology", "links", "--config", config.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("canopy topology links: " + config + ": site \"a,b\" cannot be a latency CSV name (no commas,"
                + " line breaks or surrounding spaces, at most 256 characters); rename it" + System.lineSeparator());
    }
}
