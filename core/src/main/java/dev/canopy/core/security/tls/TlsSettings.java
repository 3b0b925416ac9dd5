package dev.canopy.core.security.tls;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * A node's TLS material, read and checked once: its certificate (with any intermediates), its private key
 * and the CA certificates it trusts, all PEM. {@link #load} refuses, naming the file and the fix, a missing
 * or unreadable file, the wrong kind of PEM block, a key others may read, an encrypted or non-PKCS#8 key, a
 * key that is not the certificate's, a certificate that is expired or not yet valid, one the CA did not
 * issue, and one that cannot serve as both TLS server and client.
 *
 * <p>A peer is accepted when its certificate chains to one of the CAs (the TLS engine checks that) and,
 * when a peer name is set ({@link #withPeerName}), carries that name as a DNS or URI subject alternative
 * name (or, without any, as its common name). A CA made for the job ({@code canopy keys}) needs no name:
 * it issues nothing but the job's certificates. A site CA that also issues other certificates does.
 *
 * <p>Immutable; holds the files' contents, so nothing is read again once a transport starts.
 */
public final class TlsSettings {

    /** The only protocol offered and accepted. */
    public static final String PROTOCOL = "TLSv1.3";
    /** Files in a directory written by {@code canopy keys}. */
    public static final String CA_FILE = "ca.crt";
    public static final String NODE_CERTIFICATE_FILE = "node.crt";
    public static final String NODE_KEY_FILE = "node.key";
    /** The name {@code canopy keys} puts in every node certificate it issues. */
    public static final String JOB_PEER_NAME = "canopy-node";
    /** Environment variables through which {@code canopy launch} hands the files to each process. */
    public static final String ENV_CERTIFICATE = "CANOPY_TLS_CERT";
    public static final String ENV_KEY = "CANOPY_TLS_KEY";
    public static final String ENV_CA = "CANOPY_TLS_CA";
    public static final String ENV_PEER_NAME = "CANOPY_TLS_PEER_NAME";

    private final PemFile certificateFile;
    private final PemFile keyFile;
    private final PemFile caFile;
    private final List<X509Certificate> chain;
    private final Optional<String> peerName;

    private TlsSettings(PemFile certificateFile, PemFile keyFile, PemFile caFile, List<X509Certificate> chain,
            Optional<String> peerName) {
        this.certificateFile = certificateFile;
        this.keyFile = keyFile;
        this.caFile = caFile;
        this.chain = chain;
        this.peerName = peerName;
    }

    /**
     * Reads and checks a node's certificate, key and trusted CAs (PEM), for use now.
     *
     * @throws TlsFileException naming the file at fault and the fix
     */
    public static TlsSettings load(Path certificate, Path key, Path ca) {
        return load(certificate, key, ca, Instant.now());
    }

    /** As {@link #load(Path, Path, Path)}, with validity checked at {@code now}. */
    public static TlsSettings load(Path certificate, Path key, Path ca, Instant now) {
        PemFile certificateFile = PemFile.read(certificate, "certificate", "--tls-cert");
        PemFile keyFile = PemFile.read(key, "private key", "--tls-key");
        PemFile caFile = PemFile.read(ca, "CA", "--tls-ca");
        List<X509Certificate> chain = CertificateChecks.certificates(certificateFile);
        List<X509Certificate> authorities = CertificateChecks.certificates(caFile);
        X509Certificate leaf = chain.get(0);
        PrivateKey privateKey = CertificateChecks.privateKey(keyFile, leaf);
        refuseOpenPermissions(keyFile);
        CertificateChecks.requireKeyMatches(keyFile, privateKey, certificateFile, leaf);
        chain.forEach(each -> CertificateChecks.requireValid(certificateFile, each, now));
        authorities.forEach(authority -> CertificateChecks.requireValid(caFile, authority, now));
        CertificateChecks.requireIssuedBy(certificateFile, chain, caFile, authorities, now);
        CertificateChecks.requireBothUsages(certificateFile, leaf);
        return new TlsSettings(certificateFile, keyFile, caFile, List.copyOf(chain), Optional.empty());
    }

    /**
     * The files {@code canopy keys --out directory} wrote: {@value #CA_FILE}, and {@code node-<process>.crt}
     * and {@code .key} when it issued one certificate per process, else the shared {@value #NODE_CERTIFICATE_FILE}
     * and {@value #NODE_KEY_FILE}; peers must carry {@value #JOB_PEER_NAME}.
     */
    public static TlsSettings fromDirectory(Path directory, int process) {
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException("TLS directory " + directory + (Files.exists(directory)
                    ? " is not a directory" : " does not exist") + "; create one with `canopy keys --out " + directory
                    + "`, or give the files with --tls-cert, --tls-key and --tls-ca");
        }
        Path own = directory.resolve("node-" + process + ".crt");
        boolean perProcess = Files.exists(own);
        if (!perProcess && !Files.exists(directory.resolve(NODE_CERTIFICATE_FILE))
                && Files.exists(directory.resolve("node-0.crt"))) {
            throw new IllegalArgumentException("TLS directory " + directory + " has certificates per process but none"
                    + " for process " + process + " (" + own.getFileName() + "); issue one for every process with"
                    + " `canopy keys --out NEW_DIR --nodes N`");
        }
        return load(perProcess ? own : directory.resolve(NODE_CERTIFICATE_FILE),
                directory.resolve(perProcess ? "node-" + process + ".key" : NODE_KEY_FILE),
                directory.resolve(CA_FILE)).withPeerName(JOB_PEER_NAME);
    }

    /** The settings {@link #environment()} exported, if {@value #ENV_CERTIFICATE} is set. */
    public static Optional<TlsSettings> fromEnvironment(Map<String, String> environment) {
        String certificate = environment.get(ENV_CERTIFICATE);
        if (certificate == null || certificate.isBlank()) {
            return Optional.empty();
        }
        String key = environment.get(ENV_KEY);
        String ca = environment.get(ENV_CA);
        if (key == null || key.isBlank() || ca == null || ca.isBlank()) {
            throw new IllegalArgumentException(ENV_CERTIFICATE + " is set but " + ENV_KEY + " or " + ENV_CA
                    + " is not; set all three (canopy launch --tls does)");
        }
        TlsSettings settings = load(Path.of(certificate), Path.of(key), Path.of(ca));
        String name = environment.get(ENV_PEER_NAME);
        return Optional.of(name == null || name.isBlank() ? settings : settings.withPeerName(name));
    }

    /** The environment variables a child process reads back with {@link #fromEnvironment}: paths, never keys. */
    public Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put(ENV_CERTIFICATE, certificateFile.path().toAbsolutePath().toString());
        environment.put(ENV_KEY, keyFile.path().toAbsolutePath().toString());
        environment.put(ENV_CA, caFile.path().toAbsolutePath().toString());
        peerName.ifPresent(name -> environment.put(ENV_PEER_NAME, name));
        return environment;
    }

    /** Peers must carry {@code name} in their certificate (see the class comment). */
    public TlsSettings withPeerName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("the TLS peer name must not be empty");
        }
        return new TlsSettings(certificateFile, keyFile, caFile, chain, Optional.of(name));
    }

    public Optional<String> peerName() {
        return peerName;
    }

    /** This node's certificate and any intermediates, PEM, as read. */
    public byte[] certificatePem() {
        return certificateFile.content();
    }

    /** This node's private key, PEM (PKCS#8), as read. */
    public byte[] keyPem() {
        return keyFile.content();
    }

    /** The CA certificates this node trusts, PEM, as read. */
    public byte[] caPem() {
        return caFile.content();
    }

    /** This node's certificate. */
    public X509Certificate certificate() {
        return chain.get(0);
    }

    /**
     * Why a peer whose TLS handshake succeeded (so its certificate chains to a trusted CA) is still refused:
     * its certificate lacks the peer name; empty when it is accepted.
     */
    public Optional<String> refusal(List<Certificate> peerCertificates) {
        if (peerName.isEmpty()) {
            return Optional.empty();
        }
        if (peerCertificates.isEmpty() || !(peerCertificates.get(0) instanceof X509Certificate peer)) {
            return Optional.of("the peer presented no X.509 certificate");
        }
        List<String> names = names(peer);
        return names.contains(peerName.get()) ? Optional.empty()
                : Optional.of("the peer's certificate (" + peer.getSubjectX500Principal().getName() + ") names "
                        + names + ", not the peer name " + peerName.get() + " this node requires");
    }

    /** The DNS and URI subject alternative names of {@code certificate}, or its common name if it has none. */
    private static List<String> names(X509Certificate certificate) {
        try {
            Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
            if (alternatives != null) {
                return alternatives.stream()
                        .filter(entry -> entry.get(0).equals(2) || entry.get(0).equals(6))
                        .map(entry -> String.valueOf(entry.get(1)))
                        .toList();
            }
            for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return List.of(String.valueOf(rdn.getValue()));
                }
            }
        } catch (CertificateParsingException | InvalidNameException e) {
            return List.of();
        }
        return List.of();
    }

    private static void refuseOpenPermissions(PemFile keyFile) {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        Set<PosixFilePermission> permissions;
        try {
            permissions = Files.getPosixFilePermissions(keyFile.path());
        } catch (IOException | UnsupportedOperationException e) {
            return;
        }
        Set<PosixFilePermission> open = EnumSet.copyOf(permissions);
        open.retainAll(EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE));
        if (!open.isEmpty()) {
            throw keyFile.problem("may be read or changed by others (mode " + PosixFilePermissions.toString(permissions)
                    + "); make it private with `chmod 600 " + keyFile.path() + "`");
        }
    }

    @Override
    public String toString() {
        return "TlsSettings[certificate=" + certificateFile.path() + ", ca=" + caFile.path()
                + peerName.map(name -> ", peerName=" + name).orElse("") + "]";
    }
}
