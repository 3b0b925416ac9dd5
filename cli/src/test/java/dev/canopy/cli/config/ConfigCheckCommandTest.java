package dev.canopy.cli.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigCheckCommandTest {

    static final Path EXAMPLES = Path.of("..", "examples", "grids");

    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            return files.sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyExampleChecksClean(Path example) {
        ConfigCli run = ConfigCli.run("config", "check", example.toString());

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith(example + ": ok: grid ");
    }

    @Test
    void summaryNamesSitesLevelsAndProcesses() {
        ConfigCli run = ConfigCli.run("config", "check", EXAMPLES.resolve("mpich-gx-8site.rsl").toString());

        assertThat(run.out().lines()).containsExactly(
                EXAMPLES.resolve("mpich-gx-8site.rsl") + ": ok: grid \"mpich-gx-8site\"",
                "  sites:     8 in 4 wan groups (yonsei, ajou, kut, kisti)",
                "  processes: 32 in 8 subjobs",
                "  levels:    heavy_wan hlot, light_wan flat, lan multicast, cluster fabric_multicast, host local",
                "  links:     29 link sections; 0 of 56 site-to-site directions use default_rtt_ms 100 ms");
    }

    @Test
    void everyErrorGoesToStderrLocatedWithExitTwo(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("broken.rsl");
        Files.writeString(file, """
                +
                ( &(type = grid) (levels = (heavy_wna hlot)) )
                ( &(type = subjob) (label = a) (count = 0) (fabirc = ib) )
                ( &(type = link) (between = a b) (rtt_ms = -1) )
                """);

        ConfigCli run = ConfigCli.run("config", "check", file.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).containsExactly(
                file + ":2:29: error: unknown level \"heavy_wna\"; expected one of heavy_wan, light_wan, lan, cluster, host; did you mean \"heavy_wan\"?",
                file + ":3:41: error: count must be at least 1, got 0",
                file + ":3:45: error: unknown attribute \"fabirc\" in a subjob section; did you mean \"fabric\"?",
                file + ":4:31: error: link names unknown site \"b\"; sites are a",
                file + ":4:44: error: rtt_ms must be >= 0, got -1",
                "5 errors in " + file);
    }

    @Test
    void missingFileIsBadInput(@TempDir Path dir) {
        Path missing = dir.resolve("nowhere.rsl");

        ConfigCli run = ConfigCli.run("config", "check", missing.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines()).containsExactly(missing + ": error: no such file", "1 error in " + missing);
    }

    @Test
    void directoryIsBadInput(@TempDir Path dir) {
        ConfigCli run = ConfigCli.run("config", "check", dir.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith(dir + ": error: is a directory, not a level file");
    }

    @Test
    void fileThatIsNotTextIsBadInput(@TempDir Path dir) throws IOException {
        Path binary = dir.resolve("grid.rsl");
        Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});

        ConfigCli run = ConfigCli.run("config", "check", binary.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith(binary + ": error: is not UTF-8 text");
    }

    @Test
    void missingArgumentIsAUsageErrorWithExitTwo() {
        ConfigCli run = ConfigCli.run("config", "check");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Missing required parameter: 'FILE'");
    }

    @Test
    void configWithoutSubcommandListsCheckAndShow() {
        ConfigCli run = ConfigCli.run("config");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("check", "show");
        assertThat(List.of(run.err())).containsExactly("");
    }
}
