package dev.canopy.core.testing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
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
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Certificates for tests, made in this JVM with the JDK alone (EC P-256, SHA256withECDSA): a CA, and certificates
 * it signs, written as the PEM or PKCS#12 files of a ZooKeeper TLS directory ({@code ca}, {@code server} valid for
 * 127.0.0.1 and localhost, {@code client}). The X.509 structure is DER-encoded here (RFC 5280, version 3, with the
 * basic-constraints and subject-alternative-name extensions); the JDK parses and checks the result.
 */
public final class TestCertificates {

    /** The password of the PKCS#12 files, in the directory's {@code password} file. */
    public static final String PASSWORD = "canopy-test-password";

    private static final AtomicLong SERIALS = new AtomicLong(System.nanoTime() & 0xffffffffL);
    private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
    private static final byte[] LOOPBACK = {127, 0, 0, 1};

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
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
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
        byte[] algorithm = sequence(oid(ECDSA_WITH_SHA256));
        byte[] extensions = authority
                ? sequence(extension("2.5.29.19", true, sequence(der(0x01, new byte[] {(byte) 0xff}))))
                : sequence(extension("2.5.29.17", false, sequence(der(0x87, LOOPBACK),
                        der(0x82, "localhost".getBytes(StandardCharsets.US_ASCII)))));
        byte[] toBeSigned = sequence(
                der(0xa0, der(0x02, BigInteger.TWO.toByteArray())),
                der(0x02, BigInteger.valueOf(SERIALS.incrementAndGet()).toByteArray()),
                algorithm,
                name(issuer),
                sequence(time(notBefore), time(notAfter)),
                name(subject),
                subjectKeys.getPublic().getEncoded(),
                der(0xa3, extensions));
        try {
            Signature signature = Signature.getInstance("SHA256withECDSA");
            signature.initSign(issuerKeys.getPrivate());
            signature.update(toBeSigned);
            byte[] certificate = sequence(toBeSigned, algorithm, bitString(signature.sign()));
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(certificate));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] extension(String id, boolean critical, byte[] value) {
        return critical
                ? sequence(oid(id), der(0x01, new byte[] {(byte) 0xff}), der(0x04, value))
                : sequence(oid(id), der(0x04, value));
    }

    private static byte[] name(String commonName) {
        return sequence(der(0x31, sequence(oid("2.5.4.3"), der(0x0c, commonName.getBytes(StandardCharsets.UTF_8)))));
    }

    private static byte[] time(Instant instant) {
        String text = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC).format(instant);
        return der(0x17, text.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] bitString(byte[] bits) {
        byte[] content = new byte[bits.length + 1];
        System.arraycopy(bits, 0, content, 1, bits.length);
        return der(0x03, content);
    }

    private static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(Integer.parseInt(arcs[0]) * 40 + Integer.parseInt(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            long arc = Long.parseLong(arcs[i]);
            int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(arc) + 6) / 7);
            for (int g = groups - 1; g >= 0; g--) {
                out.write((int) ((arc >>> (7 * g)) & 0x7f) | (g > 0 ? 0x80 : 0));
            }
        }
        return der(0x06, out.toByteArray());
    }

    private static byte[] sequence(byte[]... parts) {
        return der(0x30, parts);
    }

    private static byte[] der(int tag, byte[]... parts) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            content.writeBytes(part);
        }
        int length = content.size();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(content.toByteArray());
        return out.toByteArray();
    }
}
