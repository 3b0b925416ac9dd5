package dev.canopy.cli.config;

import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.LinkOrigin;
import dev.canopy.gridconfig.model.Site;
import dev.canopy.gridconfig.print.DecimalText;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code canopy config check FILE}: exit 0 with a short summary, or exit 2 with every error on stderr. */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {"Check a level file and summarise it: sites, levels, processes.",
            "Errors go to stderr as FILE:LINE:COLUMN: error: message, with exit status 2."})
public final class ConfigCheckCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "the level file")
    private Path file;

    @Override
    public Integer call() {
        Optional<GridModel> model = LevelFileLoader.load(file, spec.commandLine().getErr());
        if (model.isEmpty()) {
            return LevelFileLoader.EXIT_BAD_INPUT;
        }
        PrintWriter out = spec.commandLine().getOut();
        summarise(model.get()).forEach(out::println);
        out.flush();
        return 0;
    }

    private List<String> summarise(GridModel grid) {
        List<Site> sites = grid.sites();
        List<String> wanGroups = sites.stream().map(Site::wanGroup).distinct().toList();
        long directions = (long) sites.size() * (sites.size() - 1);
        long defaulted = sites.stream().flatMap(from -> sites.stream().filter(to -> to != from)
                .map(to -> grid.linkBetween(from.name(), to.name())))
                .filter(link -> link.origin() == LinkOrigin.DEFAULT).count();
        return List.of(
                file + ": ok: grid \"" + grid.name() + "\"",
                "  sites:     " + sites.size() + " in " + wanGroups.size() + " wan groups (" + String.join(", ", wanGroups) + ")",
                "  processes: " + grid.processCount() + " in " + grid.subjobs().size() + " subjobs",
                "  levels:    " + Arrays.stream(Level.values())
                        .map(level -> level.configName() + " " + grid.algorithmAt(level).configName())
                        .collect(Collectors.joining(", ")),
                "  links:     " + grid.links().size() + (grid.links().size() == 1 ? " link section; " : " link sections; ")
                        + defaulted + " of " + directions
                        + " site-to-site directions use default_rtt_ms " + DecimalText.of(grid.defaultRttMs()) + " ms");
    }
}
