package dev.canopy.cli;

import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.core.transport.TransportOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The TLS options of the commands that run nodes: {@code --tls DIR} (a directory {@code canopy keys}
 * wrote) or a site's own files ({@code --tls-cert}, {@code --tls-key}, {@code --tls-ca}), and optionally
 * the name peers' certificates must carry ({@code --tls-peer-name}). Every process of a job needs the
 * same choice: with TLS or without.
 */
public final class TlsOptionsMixin {

    @Option(names = "--tls", paramLabel = "DIR", arity = "0..1", fallbackValue = "",
            description = "TLS 1.3 with the certificates canopy keys wrote to DIR (node-<process>.crt/.key if present,"
                    + " else node.crt/.key, and ca.crt); canopy launch without DIR makes a CA for the launch.")
    private Path directory;

    /** Where the commands that may make a CA for their own processes wrote it (see {@link #useGenerated}). */
    private Optional<Path> generated = Optional.empty();

    @Option(names = "--tls-cert", paramLabel = "FILE", description = "TLS with this node certificate (PEM; with"
            + " --tls-key and --tls-ca), e.g. one issued by your site's CA.")
    private Path certificate;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "The certificate's private key (PEM, PKCS#8,"
            + " unencrypted, mode 600).")
    private Path key;

    @Option(names = "--tls-ca", paramLabel = "FILE", description = "The CA certificates that issue the job's node"
            + " certificates (PEM).")
    private Path ca;

    @Option(names = "--tls-peer-name", paramLabel = "NAME", description = "Accept only peers whose certificate names"
            + " NAME (DNS or URI alternative name); advised with a site CA that issues other certificates too.")
    private String peerName;

    /** Whether {@code --tls} was given without a directory: the command should make a CA for its processes. */
    public boolean wantsGenerated() {
        return directory != null && directory.toString().isEmpty();
    }

    /** Reads the certificates from {@code generatedDirectory} instead of the empty {@code --tls}. */
    public void useGenerated(Path generatedDirectory) {
        generated = Optional.of(generatedDirectory);
    }

    /** Whether any TLS option was given. */
    public boolean requested() {
        return directory != null || certificate != null || key != null || ca != null;
    }

    /**
     * The TLS settings of process {@code process}, if asked for.
     *
     * @throws IllegalArgumentException naming the option or file at fault and the fix
     */
    public Optional<TlsSettings> settings(int process) {
        if (!requested()) {
            if (peerName != null) {
                throw new IllegalArgumentException("--tls-peer-name needs TLS: give --tls DIR or --tls-cert, --tls-key"
                        + " and --tls-ca");
            }
            return Optional.empty();
        }
        if (wantsGenerated() && generated.isEmpty()) {
            throw new IllegalArgumentException("--tls needs a directory here: make one with `canopy keys --out DIR`"
                    + " and give --tls DIR");
        }
        boolean explicit = certificate != null || key != null || ca != null;
        if (directory != null && explicit) {
            throw new IllegalArgumentException("give either --tls DIR or --tls-cert, --tls-key and --tls-ca, not both");
        }
        if (explicit && (certificate == null || key == null || ca == null)) {
            List<String> missing = new ArrayList<>();
            if (certificate == null) {
                missing.add("--tls-cert");
            }
            if (key == null) {
                missing.add("--tls-key");
            }
            if (ca == null) {
                missing.add("--tls-ca");
            }
            throw new IllegalArgumentException("TLS with your own files needs all three of --tls-cert, --tls-key and"
                    + " --tls-ca; missing: " + String.join(", ", missing));
        }
        TlsSettings settings = directory != null ? TlsSettings.fromDirectory(generated.orElse(directory), process)
                : TlsSettings.load(certificate, key, ca);
        return Optional.of(peerName == null ? settings : settings.withPeerName(peerName));
    }

    /** {@code options} with TLS for process {@code process} if asked for (see {@link #settings}). */
    public TransportOptions applyTo(TransportOptions options, int process) {
        return settings(process).map(options::withTls).orElse(options);
    }
}
