package dev.canopy.cli.keys;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code canopy keys}: a job CA and node certificates for TLS ({@link JobCertificates}), to use with
 * {@code --tls DIR} on {@code canopy node} and {@code canopy launch}.
 */
@Command(name = "keys", mixinStandardHelpOptions = true,
        description = "Make a job CA and node certificates (PEM) for --tls: ca.crt, ca.key and node.crt/node.key,"
                + " or node-<i>.crt/.key per process with --nodes. Private keys get mode 600.")
public final class KeysCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR",
            description = "The directory to write to (created with mode 700 if missing; nothing in it is overwritten).")
    private Path out;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "0",
            description = "One certificate per process, node-0 .. node-<N-1>; default: one shared by every process.")
    private int nodes;

    @Option(names = "--days", paramLabel = "D", defaultValue = "365",
            description = "How many days the certificates are valid (default ${DEFAULT-VALUE}).")
    private int days;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        List<Path> written;
        try {
            written = JobCertificates.write(out, nodes, days);
        } catch (IllegalArgumentException e) {
            err.println("canopy keys: " + e.getMessage());
            return 2;
        }
        PrintWriter printed = spec.commandLine().getOut();
        written.forEach(file -> printed.println("wrote " + file));
        printed.println("Give every process ca.crt and its certificate and key (--tls " + out + "); keep "
                + JobCertificates.CA_KEY_FILE + " off the nodes.");
        return 0;
    }
}
