package dev.canopy.cli.probe;

import dev.canopy.cli.LevelFiles;
import dev.canopy.cli.dashboard.CommandDashboard;
import dev.canopy.cli.dashboard.DashboardMixin;
import dev.canopy.dashboard.DashboardOptions;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.Site;
import dev.canopy.probes.internal.forecast.ErrorMetric;
import dev.canopy.probes.internal.forecast.ForecastSettings;
import dev.canopy.probes.internal.measure.ProbeSettings;
import dev.canopy.probes.internal.schedule.ScheduleSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy probe}: emulates the grid of a level file in this JVM, probes it for a while and prints, per
 * site pair, the configured RTT next to the forecast, its error, the forecaster chosen and the sample count. With
 * {@code --dashboard PORT} the job's dashboard shows the site-pair matrix live while it probes.
 */
@Command(
        name = "probe",
        mixinStandardHelpOptions = true,
        description = "Start the emulated grid of a level file (embedded ZooKeeper, in-process WAN emulation), "
                + "probe it and print, for every site pair, the configured RTT, the forecast RTT, its error, the "
                + "forecaster chosen and the number of samples. The forecasts are read back from the summaries the "
                + "site representatives publish in ZooKeeper. --dashboard PORT serves the web dashboard while it probes "
                + "(the site-pair matrix with the live forecasts).")
public final class ProbeCommand implements Callable<Integer> {

    private static final int EXIT_BAD_INPUT = 2;

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Level file of the grid (default: the bundled 8-site MPICH-GX example).")
    private Path config;

    @Option(names = "--duration", paramLabel = "TIME", defaultValue = "20s", converter = HumanDuration.class,
            description = "How long to probe, e.g. 20s or 2m (default: ${DEFAULT-VALUE}).")
    private Duration duration;

    @Option(names = "--period", paramLabel = "TIME", defaultValue = "250ms", converter = HumanDuration.class,
            description = "Mean round-trip probe period per link (default: ${DEFAULT-VALUE}).")
    private Duration period;

    @Option(names = "--max-probes-per-node", paramLabel = "N", defaultValue = "40",
            description = "Probes a node may take part in per second; busier links are probed less often "
                    + "(default: ${DEFAULT-VALUE}).")
    private double budget;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of probe schedules and emulated jitter and loss.")
    private long seed;

    @Option(names = "--rank-by", paramLabel = "ERROR", defaultValue = "mae", converter = RankingConverter.class,
            description = "Error that picks each link's forecaster: mae (mean absolute) or mse (mean squared) "
                    + "(default: ${DEFAULT-VALUE}).")
    private ErrorMetric ranking;

    @Option(names = "--json", description = "Print JSON: pairs and probe_messages_per_node_per_s.")
    private boolean json;

    @Mixin
    private DashboardMixin dashboard;

    @Override
    public Integer call() throws Exception {
        Optional<GridModel> levelFile = LevelFiles.load(config, "probe", spec.commandLine().getErr());
        if (levelFile.isEmpty()) {
            return EXIT_BAD_INPUT;
        }
        GridModel grid = levelFile.get();
        if (duration.compareTo(period.multipliedBy(4)) < 0) {
            spec.commandLine().getErr().println("canopy probe: --duration " + duration.toMillis()
                    + " ms is shorter than four probe periods (--period " + period.toMillis() + " ms); nothing to forecast");
            return EXIT_BAD_INPUT;
        }
        Optional<DashboardOptions> dashboardOptions;
        try {
            dashboardOptions = dashboard.options();
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("canopy probe: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        ProbeSettings settings = settingsFor(grid);
        try (EmulatedProbeGrid emulated = EmulatedProbeGrid.start(grid, settings, seed)) {
            // The dashboard follows the probing job like any other: its members and the representatives' forecasts.
            Optional<CommandDashboard> served = dashboardOptions.map(options -> CommandDashboard.start(options,
                    emulated.zooKeeperConnectString(), Optional.empty(), EmulatedProbeGrid.JOB, Optional.of(emulated.secret()), grid,
                    Optional.empty(), json ? spec.commandLine().getErr() : spec.commandLine().getOut()));
            try {
                emulated.probeFor(duration);
            } finally {
                served.ifPresent(CommandDashboard::close);
            }
            ProbeReport report = ProbeReport.of(grid, emulated.summaries(), emulated.statistics());
            spec.commandLine().getOut().print(json ? report.json().encodePrettily() + System.lineSeparator()
                    : report.table());
            spec.commandLine().getOut().flush();
        }
        return 0;
    }

    /** Timeouts long enough for the slowest configured link, and staleness after several of them. */
    private ProbeSettings settingsFor(GridModel grid) {
        double slowestMs = 0;
        List<Site> sites = grid.sites();
        for (Site from : sites) {
            for (Site to : sites) {
                if (!from.equals(to)) {
                    var link = grid.linkBetween(from.name(), to.name());
                    slowestMs = Math.max(slowestMs, link.rttMs() + link.jitterMs());
                }
            }
        }
        Duration timeout = Duration.ofMillis(Math.max(500, Math.round(2 * slowestMs)));
        int stalePeriods = (int) Math.max(5, timeout.toMillis() / period.toMillis() + 2);
        ScheduleSettings schedule = ScheduleSettings.DEFAULTS.withLatencyPeriod(period)
                .withBandwidthPeriod(period.multipliedBy(20)).withMaxProbesPerNodePerSecond(budget).withSeed(seed);
        ForecastSettings forecast = ForecastSettings.DEFAULTS.withStalePeriods(stalePeriods).withRanking(ranking);
        return ProbeSettings.around(schedule, forecast).withProbeTimeout(timeout);
    }
}
