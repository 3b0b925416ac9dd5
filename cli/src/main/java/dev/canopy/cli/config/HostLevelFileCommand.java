package dev.canopy.cli.config;

import dev.canopy.gridconfig.Diagnostic;
import dev.canopy.gridconfig.internal.hosts.HostGrid;
import dev.canopy.gridconfig.internal.hosts.HostList;
import dev.canopy.gridconfig.internal.hosts.SiteRule;
import dev.canopy.gridconfig.model.GridModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A {@code config} subcommand that writes a level file for the hosts a launcher uses: the file on standard
 * output (or in {@code --output}), or every problem on stderr and exit status 2.
 */
abstract class HostLevelFileCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--site-by", required = true, paramLabel = "RULE", converter = SiteRuleConverter.class,
            description = {"How hosts are grouped into sites: domain (n1.lyon.example is at lyon.example),",
                "prefix:REGEX (what REGEX matches at the start of the name, or its first group: prefix:[a-z]+),",
                "subnet:/N (the IPv4 network of the first N bits; only for hosts written as IPv4 addresses:"
                    + " names are not resolved)."})
    private SiteRule siteRule;

    @Option(names = "--name", paramLabel = "NAME", description = "The grid's name (default: the hostfile's name"
            + " without extension, or slurm-JOBID).")
    private String name;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the level file here instead of to"
            + " standard output, and print a summary.")
    private Path output;

    /** The hosts, in the launcher's order. */
    abstract HostList hosts();

    /** The grid name when {@code --name} is not given. */
    abstract String defaultName();

    /** The command line that wrote the file, for its first comment. */
    abstract String origin();

    @Override
    public final Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        HostGrid.Result result = HostGrid.levelFile(hosts(), siteRule, name != null ? name : defaultName(), origin());
        if (result.levelFile().isEmpty()) {
            List<Diagnostic> problems = result.problems();
            problems.stream().map(Diagnostic::format).forEach(err::println);
            err.println(problems.size() + (problems.size() == 1 ? " error" : " errors") + "; no level file written");
            err.flush();
            return LevelFileCommand.EXIT_BAD_INPUT;
        }
        PrintWriter out = spec.commandLine().getOut();
        if (output == null) {
            out.print(result.levelFile().get());
        } else {
            Files.writeString(output, result.levelFile().get(), StandardCharsets.UTF_8);
            GridModel grid = result.grid().orElseThrow();
            out.println(output + ": grid \"" + grid.name() + "\", " + grid.processCount() + " processes on "
                    + grid.subjobs().stream().mapToInt(subjob -> subjob.hosts().size()).sum() + " hosts in "
                    + grid.sites().size() + (grid.sites().size() == 1 ? " site" : " sites") + " ("
                    + String.join(", ", grid.sites().stream().map(site -> site.name()).limit(10).toList())
                    + (grid.sites().size() > 10 ? ", ..." : "") + ")");
        }
        out.flush();
        return 0;
    }
}
