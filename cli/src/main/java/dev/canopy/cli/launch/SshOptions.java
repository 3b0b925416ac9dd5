package dev.canopy.cli.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import picocli.CommandLine.Option;

/** The {@code --ssh*} options of {@code canopy launch --hostfile}: which ssh client, as whom, and the start-up tree. */
public final class SshOptions {

    /** Hosts each host starts: Open MPI's tree spawn uses a radix of 32; small enough that no host waits long. */
    static final int DEFAULT_FANOUT = 32;

    @Option(names = "--ssh", paramLabel = "PROGRAM", defaultValue = "ssh",
            description = "The ssh client (OpenSSH) on this host and on the hosts that start others (default: ${DEFAULT-VALUE}).")
    private String program;

    @Option(names = "--ssh-user", paramLabel = "USER", description = "Log in as USER (default: ssh's: your name or ~/.ssh/config).")
    private String user;

    @Option(names = "--ssh-port", paramLabel = "PORT", description = "The hosts' ssh port (default: ssh's).")
    private Integer port;

    @Option(names = "--ssh-args", paramLabel = "ARGS", description = "More arguments for every ssh, split at spaces,"
            + " e.g. \"-i ~/.ssh/cluster -o StrictHostKeyChecking=yes\".")
    private String arguments;

    @Option(names = "--ssh-fanout", paramLabel = "N", defaultValue = "" + DEFAULT_FANOUT,
            description = "Hosts started by each host (and by this one): more hosts are started by the hosts already"
                    + " running, as a tree, like Open MPI's tree spawn (default: ${DEFAULT-VALUE}).")
    private int fanout;

    /**
     * The client the options describe, checked: the program must be found (on the PATH, or at the path given).
     *
     * @throws IllegalArgumentException naming the option at fault and the fix
     */
    SshClient client() {
        List<String> extra = arguments == null || arguments.isBlank() ? List.of()
                : Arrays.asList(arguments.strip().split("\\s+"));
        SshClient client = new SshClient(program, Optional.ofNullable(user),
                port == null ? OptionalInt.empty() : OptionalInt.of(port), extra);
        if (findProgram(program).isEmpty()) {
            throw new IllegalArgumentException("--ssh " + program + ": no such program" + (program.contains("/") ? ""
                    : " on the PATH") + "; install OpenSSH's client (Debian: apt-get install openssh-client) or give"
                    + " its path with --ssh PATH");
        }
        return client;
    }

    /** @throws IllegalArgumentException when the fan-out is not positive */
    int fanout() {
        if (fanout < 1) {
            throw new IllegalArgumentException("--ssh-fanout must be at least 1, got " + fanout);
        }
        return fanout;
    }

    private static Optional<Path> findProgram(String program) {
        if (program.contains("/")) {
            return Files.isExecutable(Path.of(program)) ? Optional.of(Path.of(program)) : Optional.empty();
        }
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        return Arrays.stream(path.split(":")).filter(entry -> !entry.isEmpty()).map(entry -> Path.of(entry, program))
                .filter(Files::isExecutable).findFirst();
    }
}
