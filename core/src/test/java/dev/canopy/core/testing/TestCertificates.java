package dev.canopy.core.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates for tests (EC P-256, SHA256withECDSA): a CA, and certificates
 * it signs, written as the PEM or PKCS#12 files of a ZooKeeper TLS directory ({@code ca}, {@code server} valid for
 * 127.0.0.1 and localhost, {@code client}); signed with BouncyCastle as {@link TestPki} does for the transport.
 */
public final class TestCertificates {

    /** The password of the PKCS#12 files, in the directory's {@code password} file. */
    public static final String PASSWORD = "canopy-test-password";

    private static final AtomicLong SERIALS = new AtomicLong(System.nanoTime() & 0xffffffffL);

    /** A key pair with its certificate. */
    public record Issued(KeyPair keys, X509Certificate certificate) {
    }

    private TestCertificates() {
    }

    /** A self-signed CA valid from an hour ago for {@code validity}. */
    public static Issued authority(String name, Duration validity) {
        KeyPair keys = keyPair();
        Instant now = Instant.now();
        return new Issued(keys, sign(keys, name, keys, name, now.minus(Duration.ofHours(1)), now.plus(validity), true));
    }

    /** A certificate for {@code name} (also valid for 127.0.0.1 and localhost) signed by {@code ca}. */
    public static Issued issue(Issued ca, String name, Instant notBefore, Instant notAfter) {
        KeyPair keys = keyPair();
        String issuer = ca.certificate().getSubjectX500Principal().getName().replaceFirst("^CN=", "");
        return new Issued(keys, sign(ca.keys(), issuer, keys, name, notBefore, notAfter, false));
    }

    /** A certificate valid now for a day. */
    public static Issued issue(Issued ca, String name) {
        Instant now = Instant.now();
        return issue(ca, name, now.minus(Duration.ofHours(1)), now.plus(Duration.ofDays(1)));
    }

    /**
     * Writes {@code ca.pem}, {@code server.pem} and {@code client.pem} (private key, then certificate, then the
     * CA's) into {@code directory}; key files get mode 600.
     */
    public static Path writePemDirectory(Path directory, Issued ca) {
        write(directory.resolve("ca.pem"), pem("CERTIFICATE", encoded(ca.certificate())));
        writePrivate(directory.resolve("server.pem"), keyAndChain(issue(ca, "zookeeper-server"), ca));
        writePrivate(directory.resolve("client.pem"), keyAndChain(issue(ca, "canopy-client"), ca));
        return directory;
    }

    /** The same as PKCS#12: {@code ca.p12} (trusted certificate), {@code server.p12}, {@code client.p12}, {@code password}. */
    public static Path writePkcs12Directory(Path directory, Issued ca) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", ca.certificate());
            store(trust, directory.resolve("ca.p12"));
            for (String name : new String[] {"server", "client"}) {
                Issued issued = issue(ca, "canopy-" + name);
                KeyStore keys = KeyStore.getInstance("PKCS12");
                keys.load(null, null);
                keys.setKeyEntry(name, issued.keys().getPrivate(), PASSWORD.toCharArray(),
                        new Certificate[] {issued.certificate(), ca.certificate()});
                store(keys, directory.resolve(name + ".p12"));
                makePrivate(directory.resolve(name + ".p12"));
            }
            writePrivate(directory.resolve("password"), PASSWORD + "\n");
            return directory;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String keyAndChain(Issued issued, Issued ca) {
        return pem("PRIVATE KEY", issued.keys().getPrivate().getEncoded()) + pem("CERTIFICATE", encoded(issued.certificate()))
                + pem("CERTIFICATE", encoded(ca.certificate()));
    }

    public static String pem(String type, byte[] der) {
        return TestPki.pem(type, der);
    }

    public static void writePrivate(Path file, String content) {
        write(file, content);
        makePrivate(file);
    }

    private static void store(KeyStore store, Path file) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, PASSWORD.toCharArray());
        }
    }

    private static void makePrivate(Path file) {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String content) {
        try {
            Files.writeString(file, content, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] encoded(X509Certificate certificate) {
        try {
            return certificate.getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair keyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509Certificate sign(KeyPair issuerKeys, String issuer, KeyPair subjectKeys, String subject,
            Instant notBefore, Instant notAfter, boolean authority) {
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(new X500Name("CN=" + issuer),
                BigInteger.valueOf(SERIALS.incrementAndGet()), Date.from(notBefore), Date.from(notAfter),
                new X500Name("CN=" + subject), subjectKeys.getPublic());
        try {
            if (authority) {
                builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            } else {
                // ZooKeeper's client checks the name it resolves 127.0.0.1 to, so the server must name both.
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                        new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                        new GeneralName(GeneralName.dNSName, "localhost")}));
            }
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
        } catch (Exception e) {
            throw new IllegalStateException("cannot issue a test certificate", e);
        }
    }
}
