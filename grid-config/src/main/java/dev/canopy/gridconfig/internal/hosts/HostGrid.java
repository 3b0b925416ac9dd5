package dev.canopy.gridconfig.internal.hosts;

import dev.canopy.gridconfig.Diagnostic;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.ParseResult;
import dev.canopy.gridconfig.internal.rsl.Diagnostics;
import dev.canopy.gridconfig.internal.rsl.Position;
import dev.canopy.gridconfig.model.GridModel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A level file for the hosts a launcher uses, with the hosts grouped into sites by a {@link SiteRule}.
 *
 * <p>Process {@code i} of a level file must be the process the launcher gives rank {@code i}, or a process
 * would take another host's coordinates. {@code mpirun} (by slot) and {@code srun} (block distribution)
 * hand out ranks host by host in the list's order, filling each host's slots; a level file numbers its
 * processes subjob by subjob, filling each subjob's hosts in order. So the hosts keep the list's order: each
 * run of consecutive hosts of one site is a subjob, and a site whose hosts are not consecutive in the list
 * has several subjobs ({@code lyon}, {@code lyon-2}, ...), which the level file joins into one site.
 */
public final class HostGrid {

    private static final int HOSTS_PER_LINE = 6;

    private HostGrid() {
    }

    /** The level file's text and the grid it describes, or the problems that keep it from being written. */
    public record Result(Optional<String> levelFile, Optional<GridModel> grid, List<Diagnostic> problems) {

        public Result {
            Objects.requireNonNull(levelFile, "levelFile");
            Objects.requireNonNull(grid, "grid");
            problems = List.copyOf(problems);
        }

        static Result failed(List<Diagnostic> problems) {
            return new Result(Optional.empty(), Optional.empty(), problems);
        }
    }

    /** The hosts of one subjob: consecutive hosts of one site. */
    private record Run(String site, List<LaunchHost> hosts) {

        long processes() {
            return hosts.stream().mapToLong(LaunchHost::slots).sum();
        }
    }

    /**
     * The level file for {@code hosts}, named {@code gridName}, its sites given by {@code rule};
     * {@code origin} (the command that wrote it) goes into the file's first comment.
     */
    public static Result levelFile(HostList hosts, SiteRule rule, String gridName, String origin) {
        if (!hosts.isValid()) {
            return Result.failed(hosts.problems());
        }
        if (gridName.isBlank()) {
            return Result.failed(List.of(Diagnostic.ofFile(hosts.source(), "the grid name must not be blank")));
        }
        Diagnostics problems = new Diagnostics(hosts.source());
        List<Run> runs = new ArrayList<>();
        for (LaunchHost host : hosts.hosts()) {
            Optional<String> site = rule.siteOf(host.name());
            if (site.isEmpty()) {
                problems.error(new Position((int) host.line(), host.line() > 0 ? 1 : 0), rule.cannotPlace(host.name()));
            } else if (!runs.isEmpty() && runs.get(runs.size() - 1).site().equals(site.get())) {
                runs.get(runs.size() - 1).hosts().add(host);
            } else {
                runs.add(new Run(site.get(), new ArrayList<>(List.of(host))));
            }
        }
        if (!problems.isEmpty()) {
            return Result.failed(problems.sorted());
        }
        String text = write(runs, hosts, rule, gridName, origin);
        ParseResult parsed = GridConfigs.parse(text, gridName + ".rsl");
        if (!parsed.isValid()) {
            // Cannot happen for valid hosts; if it does, say what the written file got wrong rather than print it.
            return Result.failed(parsed.diagnostics());
        }
        return new Result(Optional.of(text), parsed.model(), List.of());
    }

    private static String write(List<Run> runs, HostList hosts, SiteRule rule, String gridName, String origin) {
        long sites = runs.stream().map(Run::site).distinct().count();
        StringBuilder out = new StringBuilder();
        out.append("(* ").append(commentSafe(origin)).append(": ").append(hosts.hosts().size())
                .append(hosts.hosts().size() == 1 ? " host, " : " hosts, ").append(hosts.slots()).append(" processes in ")
                .append(sites).append(sites == 1 ? " site" : " sites").append(" (--site-by ")
                .append(commentSafe(rule.spec())).append(").\n")
                .append("   Process i runs where mpirun (by slot) or srun (block distribution) puts rank i. *)\n")
                .append("+\n")
                .append("( &(type = grid) (name = ").append(quote(gridName)).append(") )\n");
        Set<String> siteNames = new HashSet<>(runs.stream().map(Run::site).toList());
        Set<String> used = new HashSet<>();
        for (Run run : runs) {
            // A site's first subjob is labelled after it; later ones get -2, -3, ..., never another site's name.
            String label = run.site();
            for (int n = 2; used.contains(label); n++) {
                label = run.site() + "-" + n;
                if (siteNames.contains(label)) {
                    label = run.site();
                }
            }
            used.add(label);
            out.append("( &(type = subjob) (label = ").append(quote(label)).append(") (site = ").append(quote(run.site()))
                    .append(") (count = ").append(run.processes()).append(")\n   (hosts =");
            for (int i = 0; i < run.hosts().size(); i++) {
                LaunchHost host = run.hosts().get(i);
                if (i > 0 && i % HOSTS_PER_LINE == 0) {
                    out.append("\n     ");
                }
                out.append(' ').append(quote(host.name() + ":" + host.slots()));
            }
            out.append(") )\n");
        }
        return out.toString();
    }

    /** RSL's double-quoted literal: a quote inside is doubled. */
    private static String quote(String text) {
        return "\"" + text.replace("\"", "\"\"") + "\"";
    }

    /** Text inside a comment, which the first {@code *)} would end. */
    private static String commentSafe(String text) {
        return text.replace("*)", "* )").replace("(*", "( *");
    }
}
