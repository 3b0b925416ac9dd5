package dev.canopy.core.security.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.common.ZKConfig;
import org.apache.zookeeper.util.PemReader;

/**
 * TLS to ZooKeeper: the files of a TLS directory ({@code --zk-tls DIR}), checked once, turned into the
 * {@code zookeeper.ssl.*} settings of one client ({@link #clientConfig()}, never JVM-wide system properties)
 * or of the embedded server's secure port ({@link #serverConfig()}).
 *
 * <p>A directory holds, in PEM ({@code ZooKeeper}'s {@code PEM} store type):
 * <ul>
 *   <li>{@code ca.pem}: the certificates the server's certificate must chain to (required);</li>
 *   <li>{@code client.pem}: this process's private key (PKCS#8) followed by its certificate chain, for
 *       servers that ask clients for a certificate ({@code ssl.clientAuth=need}, ZooKeeper's default);
 *       optional;</li>
 *   <li>{@code server.pem}: the embedded server's private key and certificate chain (valid for 127.0.0.1 and localhost),
 *       needed only where Canopy starts its own ZooKeeper ({@code canopy launch} without {@code --zk}).</li>
 * </ul>
 * or the same as PKCS#12 ({@code ca.p12}, {@code client.p12}, {@code server.p12}) with their password in a
 * file named {@code password}. Files holding a private key or the password must be readable by their owner
 * only. The server's host name (or IP address) is verified against its certificate.
 */
public final class ZooKeeperTls {

    /** How the files of a directory are encoded; ZooKeeper's {@code ssl.*Store.type}. */
    public enum StoreType {
        PEM("pem"),
        PKCS12("p12");

        private final String extension;

        StoreType(String extension) {
            this.extension = extension;
        }

        String fileName(String base) {
            return base + "." + extension;
        }
    }

    static final String CA = "ca";
    static final String CLIENT = "client";
    static final String SERVER = "server";
    static final String PASSWORD = "password";
    /** Certificates and keys are small; a bigger file is not one (and is never read whole). */
    private static final long MAX_FILE_BYTES = 1 << 20;

    private final Path directory;
    private final StoreType type;
    private final Path trustStore;
    private final Optional<Path> clientKeyStore;
    private final Optional<Path> serverKeyStore;
    private final Optional<Path> passwordFile;

    private ZooKeeperTls(Path directory, StoreType type, Path trustStore, Optional<Path> clientKeyStore,
            Optional<Path> serverKeyStore, Optional<Path> passwordFile) {
        this.directory = directory;
        this.type = type;
        this.trustStore = trustStore;
        this.clientKeyStore = clientKeyStore;
        this.serverKeyStore = serverKeyStore;
        this.passwordFile = passwordFile;
    }

    /**
     * Reads and checks the TLS directory {@code directory}: every file present must load (certificates currently
     * valid, a private key with its certificate), key files and the password must be private. Fails with an
     * {@link IllegalArgumentException} naming the file and the fix.
     */
    public static ZooKeeperTls fromDirectory(Path directory) {
        Objects.requireNonNull(directory, "directory");
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException("ZooKeeper TLS directory " + directory + " is not a directory; give one"
                    + " holding ca.pem (and client.pem, server.pem) or ca.p12 (and client.p12, server.p12, password)");
        }
        StoreType type = Files.exists(directory.resolve(StoreType.PEM.fileName(CA))) ? StoreType.PEM
                : Files.exists(directory.resolve(StoreType.PKCS12.fileName(CA))) ? StoreType.PKCS12 : null;
        if (type == null) {
            throw new IllegalArgumentException("ZooKeeper TLS directory " + directory + " has neither ca.pem nor ca.p12:"
                    + " put there the CA certificate(s) the ZooKeeper server's certificate is signed by");
        }
        Optional<Path> passwordFile = Optional.empty();
        if (type == StoreType.PKCS12) {
            Path password = directory.resolve(PASSWORD);
            requirePrivateFile(password, "the password of the .p12 files");
            passwordFile = Optional.of(password);
        }
        ZooKeeperTls tls = new ZooKeeperTls(directory, type, directory.resolve(type.fileName(CA)),
                present(directory.resolve(type.fileName(CLIENT))), present(directory.resolve(type.fileName(SERVER))),
                passwordFile);
        tls.checkFiles();
        return tls;
    }

    /** The directory the files were read from, for messages. */
    public Path directory() {
        return directory;
    }

    public StoreType type() {
        return type;
    }

    /** Whether the directory has the embedded server's key ({@code server.pem} or {@code server.p12}). */
    public boolean hasServerKey() {
        return serverKeyStore.isPresent();
    }

    /** The settings of one ZooKeeper client: TLS over ZooKeeper's Netty socket, this directory's files. */
    public ZKClientConfig clientConfig() {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
        applyStores(config, clientKeyStore);
        return config;
    }

    /**
     * The settings of the embedded server's secure port: its key and certificate, and no client certificate
     * asked for ({@code ssl.clientAuth=none}: clients authenticate with the job's digest credentials, now sent
     * encrypted), for {@code EmbeddedZooKeeper} (canopy-zookeeper-server). Fails naming the missing file when the
     * directory has no server key.
     */
    public ZKConfig serverConfig() {
        if (serverKeyStore.isEmpty()) {
            throw new IllegalArgumentException("ZooKeeper TLS directory " + directory + " has no " + type.fileName(SERVER)
                    + ": the embedded ZooKeeper needs its private key and certificate (valid for 127.0.0.1 and localhost) there;"
                    + " or give --zk an ensemble that has a secure client port");
        }
        ZKConfig config = new ZKConfig();
        applyStores(config, serverKeyStore);
        try (ClientX509Util x509 = new ClientX509Util()) {
            config.setProperty(x509.getSslClientAuthProperty(), "none");
        }
        return config;
    }

    private void applyStores(ZKConfig config, Optional<Path> keyStore) {
        try (ClientX509Util x509 = new ClientX509Util()) {
            config.setProperty(x509.getSslTruststoreLocationProperty(), trustStore.toString());
            config.setProperty(x509.getSslTruststoreTypeProperty(), type.name());
            passwordFile.ifPresent(file -> config.setProperty(x509.getSslTruststorePasswdPathProperty(), file.toString()));
            keyStore.ifPresent(file -> {
                config.setProperty(x509.getSslKeystoreLocationProperty(), file.toString());
                config.setProperty(x509.getSslKeystoreTypeProperty(), type.name());
            });
            passwordFile.ifPresent(file -> config.setProperty(x509.getSslKeystorePasswdPathProperty(), file.toString()));
        }
    }

    private void checkFiles() {
        requireReadableFile(trustStore, "the CA certificate(s)");
        List<X509Certificate> trusted = certificates(trustStore, load(trustStore, false));
        if (trusted.isEmpty()) {
            throw new IllegalArgumentException("ZooKeeper TLS file " + trustStore + " holds no certificate; put the CA"
                    + " certificate(s) the server's certificate is signed by there (PEM: -----BEGIN CERTIFICATE-----)");
        }
        trusted.forEach(certificate -> requireCurrent(certificate, trustStore));
        clientKeyStore.ifPresent(this::checkKeyStore);
        serverKeyStore.ifPresent(this::checkKeyStore);
    }

    private void checkKeyStore(Path file) {
        requirePrivateFile(file, "a private key and its certificate chain");
        KeyStore store = load(file, true);
        try {
            boolean hasKey = false;
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias)) {
                    hasKey = true;
                    Certificate[] chain = store.getCertificateChain(alias);
                    if (chain == null || chain.length == 0) {
                        throw new IllegalArgumentException("ZooKeeper TLS file " + file + " has a private key without"
                                + " its certificate; append the certificate chain after the key");
                    }
                    requireCurrent((X509Certificate) chain[0], file);
                }
            }
            if (!hasKey) {
                throw new IllegalArgumentException("ZooKeeper TLS file " + file + " holds no private key; it must hold"
                        + " the private key (PEM: -----BEGIN PRIVATE KEY-----, unencrypted PKCS#8) followed by its"
                        + " certificate chain");
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("ZooKeeper TLS file " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * Loads {@code file} as ZooKeeper will (its {@code PemReader} for PEM: key and chain from the one file), so
     * that what passes here is what ZooKeeper reads.
     */
    private KeyStore load(Path file, boolean keyStore) {
        try {
            if (type == StoreType.PEM) {
                return keyStore
                        ? PemReader.loadKeyStore(file.toFile(), file.toFile(), Optional.empty())
                        : PemReader.loadTrustStore(file.toFile());
            }
            char[] password = Files.readString(passwordFile.orElseThrow()).strip().toCharArray();
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(file)) {
                store.load(in, password);
            }
            return store;
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException("ZooKeeper TLS file " + file + " is not a valid " + type + " "
                    + (keyStore ? "private key with its certificate chain" : "certificate file") + ": " + e.getMessage()
                    + (type == StoreType.PKCS12 ? " (is the password in " + directory.resolve(PASSWORD) + " right?)" : ""), e);
        }
    }

    private static List<X509Certificate> certificates(Path file, KeyStore store) {
        try {
            return Collections.list(store.aliases()).stream()
                    .map(alias -> {
                        try {
                            return store.getCertificate(alias);
                        } catch (GeneralSecurityException e) {
                            throw new IllegalArgumentException("ZooKeeper TLS file " + file + ": " + e.getMessage(), e);
                        }
                    })
                    .filter(X509Certificate.class::isInstance).map(X509Certificate.class::cast).toList();
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("ZooKeeper TLS file " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    private static void requireCurrent(X509Certificate certificate, Path file) {
        try {
            certificate.checkValidity();
        } catch (CertificateExpiredException e) {
            throw new IllegalArgumentException("ZooKeeper TLS file " + file + ": the certificate of "
                    + certificate.getSubjectX500Principal() + " expired on " + certificate.getNotAfter().toInstant()
                    + "; renew it", e);
        } catch (CertificateNotYetValidException e) {
            throw new IllegalArgumentException("ZooKeeper TLS file " + file + ": the certificate of "
                    + certificate.getSubjectX500Principal() + " is valid only from " + certificate.getNotBefore().toInstant()
                    + " (is this machine's clock right?)", e);
        }
    }

    private static Optional<Path> present(Path file) {
        return Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? Optional.of(file) : Optional.empty();
    }

    private static void requireReadableFile(Path file, String what) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("ZooKeeper TLS file " + file + " (" + what + ") is missing or not a"
                    + " regular file");
        }
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("ZooKeeper TLS file " + file + " (" + what + ") is not readable by this"
                    + " user");
        }
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new IllegalArgumentException("ZooKeeper TLS file " + file + " (" + what + ") is over "
                        + (MAX_FILE_BYTES >> 20) + " MiB: it is not a certificate or key file");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("ZooKeeper TLS file " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    /** A file with a secret in it: readable, and neither group nor others may read or write it. */
    private static void requirePrivateFile(Path file, String what) {
        requireReadableFile(file, what);
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (view == null) {
            return;
        }
        Set<PosixFilePermission> open = EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);
        try {
            open.retainAll(view.readAttributes().permissions());
        } catch (IOException e) {
            throw new IllegalArgumentException("ZooKeeper TLS file " + file + " cannot be read: " + e.getMessage(), e);
        }
        if (!open.isEmpty()) {
            throw new IllegalArgumentException("ZooKeeper TLS file " + file + " (" + what + ") may be read or written"
                    + " by other users (" + open + "); make it private: chmod 600 " + file);
        }
    }

    @Override
    public String toString() {
        return "ZooKeeperTls[" + directory + ", " + type + (clientKeyStore.isPresent() ? ", client key" : "")
                + (serverKeyStore.isPresent() ? ", server key" : "") + "]";
    }
}
