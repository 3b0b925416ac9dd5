package dev.canopy.cli.bench;

import picocli.CommandLine.Option;

/**
 * {@code --timeout SECONDS} of the {@code canopy bench} commands that run members in other JVMs: how long before
 * they are stopped. Each command gives its own default ({@code new TimeoutOption(1800)}); what the timeout stops
 * is described per command in {@link BenchOutput#TEXTS}.
 */
public final class TimeoutOption {

    // Named so: the help shows it as --timeout=<timeoutSeconds>.
    @Option(names = "--timeout", descriptionKey = "timeout",
            description = "Seconds before the run is stopped (default ${DEFAULT-VALUE}).")
    private long timeoutSeconds;

    /** The option with the default {@code defaultSeconds} (picocli keeps the instance a command creates). */
    public TimeoutOption(long defaultSeconds) {
        this.timeoutSeconds = defaultSeconds;
    }

    /** The seconds given, or the command's default. */
    public long seconds() {
        return timeoutSeconds;
    }
}
