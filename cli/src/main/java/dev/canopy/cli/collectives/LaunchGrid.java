package dev.canopy.cli.collectives;

import dev.canopy.cli.LevelFiles;
import dev.canopy.gridconfig.Diagnostic;
import dev.canopy.gridconfig.internal.hosts.HostGrid;
import dev.canopy.gridconfig.internal.hosts.Hostfile;
import dev.canopy.gridconfig.internal.hosts.SiteRule;
import dev.canopy.gridconfig.model.GridModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The grid {@code canopy launch} runs: a level file ({@code --config}), or one written for the hosts of an MPI
 * hostfile ({@code --hostfile} with {@code --site-by}, as {@code canopy config from-hostfile} writes it), with its
 * text (sent to hosts started over ssh) and whether its hosts are real ({@code --hostfile} or {@code --remote}).
 */
record LaunchGrid(GridModel grid, String levelFile, boolean overSsh) {

    /** The grid, or empty after printing what is wrong to {@code err}. */
    static Optional<LaunchGrid> load(Path config, Path hostfile, SiteRule siteRule, boolean remote, PrintWriter err) {
        Optional<String> misuse = misuse(config, hostfile, siteRule);
        if (misuse.isPresent()) {
            err.println("canopy launch: " + misuse.get());
            return Optional.empty();
        }
        if (hostfile != null) {
            return fromHostfile(hostfile, siteRule, err);
        }
        Optional<GridModel> grid = LevelFiles.load(config, "launch", err);
        if (grid.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new LaunchGrid(grid.get(), Files.readString(config, StandardCharsets.UTF_8), remote));
        } catch (IOException e) {
            err.println("canopy launch: cannot read " + config + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    private static Optional<String> misuse(Path config, Path hostfile, SiteRule siteRule) {
        if (config != null && hostfile != null) {
            return Optional.of("give --config FILE or --hostfile FILE, not both");
        }
        if (config == null && hostfile == null) {
            return Optional.of("give the level file with --config FILE, or the hosts with --hostfile FILE --site-by RULE");
        }
        if (hostfile != null && siteRule == null) {
            return Optional.of("--hostfile needs --site-by RULE to group its hosts into sites: domain, prefix:REGEX or"
                    + " subnet:/N (subnet:/32 makes each host a site of its own)");
        }
        if (hostfile == null && siteRule != null) {
            return Optional.of("--site-by goes with --hostfile; a level file (--config) already says the sites");
        }
        return Optional.empty();
    }

    private static Optional<LaunchGrid> fromHostfile(Path hostfile, SiteRule siteRule, PrintWriter err) {
        String name = hostfile.getFileName() == null ? "hosts" : hostfile.getFileName().toString();
        HostGrid.Result result = HostGrid.levelFile(Hostfile.load(hostfile), siteRule, name.replaceFirst("\\.[^.]*$", ""),
                "written by canopy launch --hostfile " + hostfile);
        if (result.levelFile().isEmpty()) {
            result.problems().stream().map(Diagnostic::format).forEach(err::println);
            err.println("canopy launch: " + hostfile + " gives no hosts to run on; see above");
            return Optional.empty();
        }
        return Optional.of(new LaunchGrid(result.grid().orElseThrow(), result.levelFile().get(), true));
    }
}
