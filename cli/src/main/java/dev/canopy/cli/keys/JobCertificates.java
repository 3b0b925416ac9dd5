package dev.canopy.cli.keys;

import dev.canopy.core.security.tls.TlsSettings;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Issues a job CA and node certificates (EC P-256, ECDSA with SHA-256) and writes them as PEM files in the
 * layout {@link TlsSettings#fromDirectory} reads: {@value TlsSettings#CA_FILE} and {@code ca.key}, and either
 * one shared {@value TlsSettings#NODE_CERTIFICATE_FILE}/{@value TlsSettings#NODE_KEY_FILE} or
 * {@code node-<i>.crt}/{@code .key} per process. Private keys are created with mode 600 (never readable by
 * others, not even for a moment); the directory, when created, with mode 700.
 *
 * <p>Node certificates carry {@value TlsSettings#JOB_PEER_NAME} as DNS subject alternative name and may
 * act as TLS server and client; they are valid from an hour ago (for clocks slightly behind) for the
 * given number of days. The JDK has no public API to issue certificates, hence BouncyCastle.
 */
public final class JobCertificates {

    static final String CA_KEY_FILE = "ca.key";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String SIGNATURE = "SHA256withECDSA";

    private JobCertificates() {
    }

    /**
     * Writes a new CA and {@code nodes} node certificates ({@code 0}: one shared by every process) valid for
     * {@code days} days into {@code directory}, and returns the files written.
     *
     * @throws IllegalArgumentException when a file to write exists already (nothing is overwritten)
     */
    public static List<Path> write(Path directory, int nodes, int days) throws IOException {
        if (nodes < 0 || days < 1) {
            throw new IllegalArgumentException("need 0 or more node certificates (0: one shared) valid at least 1 day;"
                    + " got " + nodes + " certificates for " + days + " days");
        }
        List<String> names = new ArrayList<>(List.of(TlsSettings.CA_FILE, CA_KEY_FILE));
        if (nodes == 0) {
            names.addAll(List.of(TlsSettings.NODE_CERTIFICATE_FILE, TlsSettings.NODE_KEY_FILE));
        }
        for (int i = 0; i < nodes; i++) {
            names.addAll(List.of("node-" + i + ".crt", "node-" + i + ".key"));
        }
        for (String name : names) {
            if (Files.exists(directory.resolve(name))) {
                throw new IllegalArgumentException(directory.resolve(name) + " exists already; give an empty or new"
                        + " directory (nothing is overwritten)");
            }
        }
        if (!Files.isDirectory(directory)) {
            Files.createDirectories(directory, permissions("rwx------"));
        }
        Instant from = Instant.now().minus(Duration.ofHours(1));
        Instant until = Instant.now().plus(Duration.ofDays(days));
        KeyPair caKeys = newKeys();
        X500Name caName = new X500Name("CN=Canopy job CA " + HexFormat.of().formatHex(randomBytes(8)));
        X509Certificate ca = authority(caName, caKeys, from, until);
        List<Path> written = new ArrayList<>();
        written.add(writeCertificate(directory.resolve(TlsSettings.CA_FILE), ca));
        written.add(writeKey(directory.resolve(CA_KEY_FILE), caKeys));
        for (int i = 0; i < Math.max(1, nodes); i++) {
            String prefix = nodes == 0 ? "node" : "node-" + i;
            KeyPair keys = newKeys();
            X509Certificate node = node(caName, caKeys, ca, keys, from, until);
            written.add(writeCertificate(directory.resolve(prefix + ".crt"), node));
            written.add(writeKey(directory.resolve(prefix + ".key"), keys));
        }
        return written;
    }

    private static X509Certificate authority(X500Name name, KeyPair keys, Instant from, Instant until) {
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, serial(), Date.from(from),
                    Date.from(until), name, keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()));
            return sign(builder, keys);
        } catch (CertIOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot issue the job CA certificate", e);
        }
    }

    private static X509Certificate node(X500Name caName, KeyPair caKeys, X509Certificate ca, KeyPair keys, Instant from,
            Instant until) {
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(caName, serial(), Date.from(from),
                    Date.from(until), new X500Name("CN=" + TlsSettings.JOB_PEER_NAME), keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                            new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
                    .addExtension(Extension.subjectAlternativeName, false,
                            new GeneralNames(new GeneralName(GeneralName.dNSName, TlsSettings.JOB_PEER_NAME)))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            extensions.createAuthorityKeyIdentifier(ca));
            return sign(builder, caKeys);
        } catch (CertIOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot issue a node certificate", e);
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer) throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder(SIGNATURE).build(signer.getPrivate())));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static Path writeCertificate(Path file, X509Certificate certificate) throws IOException {
        try {
            Files.writeString(file, pem("CERTIFICATE", certificate.getEncoded()), StandardCharsets.US_ASCII,
                    StandardOpenOption.CREATE_NEW);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return file;
    }

    /** Creates the file with mode 600 before a byte of the key is written. */
    private static Path writeKey(Path file, KeyPair keys) throws IOException {
        Files.createFile(file, permissions("rw-------"));
        Files.writeString(file, pem("PRIVATE KEY", keys.getPrivate().getEncoded()), StandardCharsets.US_ASCII,
                StandardOpenOption.TRUNCATE_EXISTING);
        return file;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static FileAttribute<?>[] permissions(String mode) {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode))}
                : new FileAttribute<?>[0];
    }

    private static KeyPair newKeys() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("EC P-256 keys are not available in this JVM", e);
        }
    }

    private static BigInteger serial() {
        return new BigInteger(1, randomBytes(16));
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
