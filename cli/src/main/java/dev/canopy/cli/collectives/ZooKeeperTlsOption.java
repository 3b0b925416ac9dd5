package dev.canopy.cli.collectives;

import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.core.security.tls.ZooKeeperTls;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --zk-tls DIR}: reach ZooKeeper over TLS (its {@code secureClientPort}) with the certificates in DIR
 * ({@link ZooKeeperTls}); for the commands that talk to ZooKeeper ({@code launch}, {@code node}, {@code calibrate}, {@code dashboard}).
 * The directory is checked once, on first use: a missing or unreadable file, a key others may read, an expired
 * certificate are bad input (exit 2) naming the file and the fix.
 */
public final class ZooKeeperTlsOption {

    @Option(names = "--zk-tls", paramLabel = "DIR", description = "Talk TLS to ZooKeeper (--zk names the servers'"
            + " secureClientPort) with DIR/ca.pem (the CA of the servers' certificates), DIR/client.pem (optional: this"
            + " process's private key and certificate chain) and, for the embedded ZooKeeper, DIR/server.pem (its key"
            + " and certificate for 127.0.0.1 and localhost); or the same as .p12 files with DIR/password. Keys: mode 600.")
    private Path directory;

    private Optional<ZooKeeperTls> checked;

    /** The checked settings; empty without {@code --zk-tls}. Throws {@link IllegalArgumentException} naming the problem. */
    public Optional<ZooKeeperTls> tls() {
        if (checked == null) {
            checked = Optional.ofNullable(directory).map(ZooKeeperTls::fromDirectory);
        }
        return checked;
    }

    /** {@code options}, reaching ZooKeeper over TLS when {@code --zk-tls} was given. */
    public JoinOptions applyTo(JoinOptions options) {
        return tls().map(options::withZooKeeperTls).orElse(options);
    }

    /** Tells a launched process to reach ZooKeeper over TLS with the same directory ({@link JoinOptions#ENV_ZOOKEEPER_TLS}). */
    public void exportTo(Map<String, String> environment) {
        tls().ifPresent(given -> environment.put(JoinOptions.ENV_ZOOKEEPER_TLS, given.directory().toAbsolutePath().toString()));
    }
}
