package dev.canopy.cli.config;

import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.internal.print.DecimalText;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.LinkOrigin;
import dev.canopy.gridconfig.model.Site;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;

/** {@code canopy config check FILE}: exit 0 with a short summary, or exit 2 with every error on stderr. */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {"Check a level file and summarise it: sites, levels, processes.",
            "Errors go to stderr as FILE:LINE:COLUMN: error: message, with exit status 2."})
public final class ConfigCheckCommand extends LevelFileCommand {

    @Override
    void write(GridModel model, Path file, PrintWriter out) {
        summarise(model, file).forEach(out::println);
    }

    private static List<String> summarise(GridModel grid, Path file) {
        List<Site> sites = grid.sites();
        List<String> wanGroups = sites.stream().map(Site::wanGroup).distinct().toList();
        long directions = (long) sites.size() * (sites.size() - 1);
        long defaulted = sites.stream().flatMap(from -> sites.stream().filter(to -> !to.equals(from))
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
