package dev.canopy.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.ResourceBundle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The options every bench command shares ({@link BenchOutput}, {@link PlotOption}, {@link TimeoutOption}), once. */
class BenchOptionsTest {

    private static final List<String> COMMANDS = List.of("p2p", "topology", "collectives", "multicast", "dynamic",
            "groups", "segmentation");

    @TempDir
    Path directory;

    @Test
    void everyCommandsOwnHelpTextIsFoundAndEveryTextNamesAnOptionOfABenchCommand() {
        CommandLine canopy = new CommandLine(new CanopyCommand());
        CommandLine bench = canopy.getSubcommands().get("bench");
        assertThat(bench.getSubcommands().keySet()).containsExactlyInAnyOrderElementsOf(COMMANDS);
        ResourceBundle texts = ResourceBundle.getBundle(BenchOutput.TEXTS);
        for (String key : texts.keySet()) {
            String[] parts = key.split("\\.");
            assertThat(parts).as(key).hasSize(4).startsWith("canopy", "bench");
            CommandLine command = bench.getSubcommands().get(parts[2]);
            assertThat(command).as("the command of " + key).isNotNull();
            OptionSpec option = command.getCommandSpec().findOption("--" + parts[3]);
            assertThat(option).as("the option of " + key).isNotNull();
            assertThat(String.join(" ", option.description())).as(key)
                    .isEqualTo(texts.getString(key).replace("${DEFAULT-VALUE}", String.valueOf(option.initialValue())));
        }
    }

    @Test
    void eachCommandKeepsItsTimeoutDefaultAndTheOthersHaveNone() {
        CommandLine bench = new CommandLine(new CanopyCommand()).getSubcommands().get("bench");
        assertThat(bench.getSubcommands().get("multicast").getCommandSpec().findOption("--timeout").<Long>getValue())
                .isEqualTo(1200L);
        assertThat(bench.getSubcommands().get("groups").getCommandSpec().findOption("--timeout").<Long>getValue())
                .isEqualTo(1800L);
        assertThat(bench.getSubcommands().get("segmentation").getCommandSpec().findOption("--timeout").<Long>getValue())
                .isEqualTo(1800L);
        for (String name : List.of("p2p", "topology", "collectives", "dynamic")) {
            assertThat(bench.getSubcommands().get(name).getCommandSpec().findOption("--timeout")).as(name).isNull();
        }
        for (String name : List.of("topology", "dynamic", "groups")) {
            assertThat(bench.getSubcommands().get(name).getCommandSpec().findOption("--plot")).as(name).isNull();
        }
    }

    @Test
    void aPlotThatCannotBeWrittenIsRefusedByNameBeforeTheRun() {
        Path missing = directory.resolve("no-such-dir").resolve("plot.svg");
        for (String name : List.of("p2p", "multicast", "segmentation")) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int status = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                    .execute("bench", name, "--plot", missing.toString());
            assertThat(status).as(name + ": " + err).isEqualTo(BenchOutput.EXIT_BAD_INPUT);
            assertThat(err.toString()).as(name).startsWith("canopy bench " + name + ": --plot " + missing)
                    .contains("does not exist; create it first");
            assertThat(out.toString()).as(name).isEmpty();
        }
    }
}
