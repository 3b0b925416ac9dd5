package dev.canopy.cli.collectives;

import dev.canopy.core.security.tls.ZooKeeperTls;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.zookeeper.util.PemReader;

/**
 * Whether the embedded ZooKeeper's certificate ({@code --zk-tls DIR/server.pem} or {@code server.p12}) names the
 * address the launched hosts reach it at: they verify it, and a certificate made for 127.0.0.1 only would fail each
 * remote node's TLS handshake, far from the launcher, after ZooKeeper's retries. Checked before anything starts.
 */
final class EmbeddedZooKeeperCertificate {

    /** X.509 subjectAltName type of an IP address (RFC 5280). */
    private static final int IP_ADDRESS = 7;

    private EmbeddedZooKeeperCertificate() {
    }

    /**
     * @throws IllegalArgumentException naming the file, the addresses it has, the one it needs and how to make it
     */
    static void requireAddress(ZooKeeperTls tls, String address) {
        Path file = tls.directory().resolve(tls.type() == ZooKeeperTls.StoreType.PEM ? "server.pem" : "server.p12");
        List<String> named = ipAddresses(certificate(tls, file));
        InetAddress wanted = literal(address);
        if (named.stream().map(EmbeddedZooKeeperCertificate::literal).noneMatch(wanted::equals)) {
            throw new IllegalArgumentException("--zk-tls " + tls.directory() + ": the embedded ZooKeeper listens on "
                    + address + " (this machine's address towards the hosts), which the hosts verify, but "
                    + file.getFileName() + " names " + (named.isEmpty() ? "no IP address" : "only " + named)
                    + "; make its certificate with that address too (keytool -ext san=ip:" + address + ", openssl:"
                    + " subjectAltName = IP:" + address + "), or give --zk an ensemble that has a secure client port");
        }
    }

    private static X509Certificate certificate(ZooKeeperTls tls, Path file) {
        try {
            KeyStore store;
            if (tls.type() == ZooKeeperTls.StoreType.PEM) {
                store = PemReader.loadKeyStore(file.toFile(), file.toFile(), Optional.empty());
            } else {
                char[] password = Files.readString(tls.directory().resolve("password")).strip().toCharArray();
                store = KeyStore.getInstance("PKCS12");
                try (InputStream in = Files.newInputStream(file)) {
                    store.load(in, password);
                }
            }
            for (String alias : Collections.list(store.aliases())) {
                Certificate[] chain = store.isKeyEntry(alias) ? store.getCertificateChain(alias) : null;
                if (chain != null && chain.length > 0 && chain[0] instanceof X509Certificate certificate) {
                    return certificate;
                }
            }
            throw new IllegalArgumentException("--zk-tls: " + file + " holds no private key with its certificate");
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("--zk-tls: cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<String> ipAddresses(X509Certificate certificate) {
        List<String> addresses = new ArrayList<>();
        try {
            Collection<List<?>> names = certificate.getSubjectAlternativeNames();
            if (names != null) {
                for (List<?> name : names) {
                    if (name.size() == 2 && Integer.valueOf(IP_ADDRESS).equals(name.get(0)) && name.get(1) instanceof String ip) {
                        addresses.add(ip);
                    }
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("--zk-tls: the server certificate's names cannot be read: " + e.getMessage(), e);
        }
        return addresses;
    }

    /** An IP literal (never looked up: both sides are literals), so 10.0.0.1 and its IPv6 forms compare equal. */
    private static InetAddress literal(String address) {
        try {
            return InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--zk-tls: " + address + " is not an IP address", e);
        }
    }
}
