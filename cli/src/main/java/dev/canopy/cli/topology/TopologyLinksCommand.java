package dev.canopy.cli.topology;

import dev.canopy.gridconfig.Excerpt;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.Site;
import dev.canopy.topology.internal.graph.LatencyCsvReader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy topology links}: a level file's site-to-site RTTs (its link sections, else
 * {@code default_rtt_ms}) as a latency CSV, so plans and comparisons can run on a configured grid.
 */
@Command(name = "links", mixinStandardHelpOptions = true,
        description = "Print the site-to-site RTTs of a level file as a latency CSV (from,to,rtt_ms).")
final class TopologyLinksCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", required = true, paramLabel = "FILE.rsl", description = "The level file.")
    private Path config;

    @Override
    public Integer call() throws Exception {
        return BadInput.run(spec, () -> {
            GridModel model = LevelFileNodes.load(config).model();
            List<String> sites = model.sites().stream().map(Site::name).toList();
            for (String site : sites) {
                if (!fitsCsv(site)) {
                    throw new IllegalArgumentException(config + ": site " + Excerpt.quoted(site) + " cannot be a latency CSV name"
                            + " (no commas, line breaks or surrounding spaces, at most " + LatencyCsvReader.MAX_NAME_CHARS + " characters); rename it");
                }
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println(LatencyCsvReader.HEADER);
            for (String from : sites) {
                for (String to : sites) {
                    if (!from.equals(to)) {
                        out.println(from + "," + to + "," + model.linkBetween(from, to).rttMs());
                    }
                }
            }
            out.flush();
            return BadInput.EXIT_OK;
        });
    }

    /** Whether {@link LatencyCsvReader} reads {@code site} back as the same name. */
    private static boolean fitsCsv(String site) {
        return site.length() <= LatencyCsvReader.MAX_NAME_CHARS && site.strip().equals(site)
                && site.chars().noneMatch(c -> c == ',' || c == '\n' || c == '\r' || c == '\uFFFD');
    }
}
