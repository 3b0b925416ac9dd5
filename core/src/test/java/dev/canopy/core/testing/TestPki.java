package dev.canopy.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates for TLS tests: a CA and the node certificates it issues (EC P-256), with any validity
 * window, written as PEM files. Tests need what {@code canopy keys} never makes (expired certificates,
 * a second CA), so this is a separate, small issuer.
 */
public final class TestPki {

    private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());

    /** A key pair and its certificate. */
    public record Issued(KeyPair keys, X509Certificate certificate) {
    }

    /** The three files a node is given. */
    public record Files3(Path certificate, Path key, Path ca) {
    }

    private final Issued authority;

    private TestPki(Issued authority) {
        this.authority = authority;
    }

    /** A new self-signed CA, valid from ten days ago to ten days ahead. */
    public static TestPki authority(String name) {
        KeyPair keys = newKeys();
        Instant now = Instant.now();
        X500Name subject = new X500Name("CN=" + name);
        return new TestPki(new Issued(keys, sign(new JcaX509v3CertificateBuilder(subject, serial(),
                Date.from(now.minus(Duration.ofDays(10))), Date.from(now.plus(Duration.ofDays(10))), subject,
                keys.getPublic()),
                keys, true, null)));
    }

    public X509Certificate certificate() {
        return authority.certificate();
    }

    /** A node certificate valid from a day ago to a day ahead, named {@code name} (SAN DNS and CN). */
    public Issued issue(String name) {
        Instant now = Instant.now();
        return issue(name, now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(1)));
    }

    /** A node certificate valid from {@code notBefore} to {@code notAfter}. */
    public Issued issue(String name, Instant notBefore, Instant notAfter) {
        KeyPair keys = newKeys();
        X500Name issuer = new X500Name(authority.certificate().getSubjectX500Principal().getName());
        return new Issued(keys, sign(new JcaX509v3CertificateBuilder(issuer, serial(), Date.from(notBefore),
                Date.from(notAfter), new X500Name("CN=" + name), keys.getPublic()), authority.keys(), false, name));
    }

    /** Writes {@code node}'s certificate and key (mode 600) and this CA's certificate into {@code directory}. */
    public Files3 write(Path directory, String prefix, Issued node) {
        try {
            Path certificate = directory.resolve(prefix + ".crt");
            Path key = directory.resolve(prefix + ".key");
            Path ca = directory.resolve(prefix + "-ca.crt");
            Files.writeString(certificate, pem("CERTIFICATE", node.certificate().getEncoded()));
            Files.writeString(key, pem("PRIVATE KEY", node.keys().getPrivate().getEncoded()));
            Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
            Files.writeString(ca, pem("CERTIFICATE", authority.certificate().getEncoded()));
            return new Files3(certificate, key, ca);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer, boolean ca, String name) {
        try {
            if (ca) {
                builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            } else {
                builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
                builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                        new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
                builder.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(new GeneralName(GeneralName.dNSName, name)));
            }
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
        } catch (Exception e) {
            throw new IllegalStateException("cannot issue a test certificate", e);
        }
    }

    private static KeyPair newKeys() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIAL.incrementAndGet());
    }
}
