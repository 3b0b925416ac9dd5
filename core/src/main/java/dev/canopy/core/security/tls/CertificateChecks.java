package dev.canopy.core.security.tls;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateParsingException;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The checks of a node's TLS files before any connection: what each file holds, whether the key is the
 * certificate's, whether the certificate is valid now and issued by the CA the peers trust, and whether
 * it may serve both ends of a connection. Each failure names the file and the fix.
 */
final class CertificateChecks {

    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
    private static final String ANY_USAGE = "2.5.29.37.0";
    private static final String CONVERT_KEY = "convert it with `openssl pkcs8 -topk8 -nocrypt -in FILE -out FILE.pk8`";

    private CertificateChecks() {
    }

    /** The certificates of {@code file}, which must hold CERTIFICATE blocks only. */
    static List<X509Certificate> certificates(PemFile file) {
        List<X509Certificate> certificates = new ArrayList<>();
        for (PemFile.Block block : file.blocks()) {
            if (block.type().endsWith("PRIVATE KEY")) {
                throw file.problem("holds a private key (" + block.type() + "); it must hold certificates only"
                        + " (are the certificate and key files swapped?)");
            }
            if (!block.type().equals("CERTIFICATE")) {
                throw file.problem("holds a " + block.type() + " block; it must hold CERTIFICATE blocks only");
            }
            try {
                CertificateFactory factory = CertificateFactory.getInstance("X.509");
                certificates.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
            } catch (CertificateException e) {
                throw file.problem("has a CERTIFICATE block that is not an X.509 certificate (" + e.getMessage() + ")");
            }
        }
        return certificates;
    }

    /** The one unencrypted PKCS#8 private key of {@code file}, of {@code certificate}'s key algorithm. */
    static PrivateKey privateKey(PemFile file, X509Certificate certificate) {
        if (file.blocks().size() != 1) {
            throw file.problem("holds " + file.blocks().size() + " PEM blocks; it must hold exactly one PRIVATE KEY");
        }
        PemFile.Block block = file.blocks().get(0);
        switch (block.type()) {
            case "PRIVATE KEY" -> { }
            case "ENCRYPTED PRIVATE KEY" -> throw file.problem("is encrypted; Canopy needs an unencrypted key that only"
                    + " its owner may read: " + CONVERT_KEY + " and `chmod 600` it");
            case "RSA PRIVATE KEY", "EC PRIVATE KEY" -> throw file.problem("holds a " + block.type() + " in OpenSSL's"
                    + " traditional format; Canopy reads PKCS#8 (PRIVATE KEY): " + CONVERT_KEY);
            case "CERTIFICATE" -> throw file.problem("holds a certificate, not a private key (are the certificate and"
                    + " key files swapped?)");
            default -> throw file.problem("holds a " + block.type() + " block, not a PRIVATE KEY");
        }
        String algorithm = certificate.getPublicKey().getAlgorithm();
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(block.der()));
        } catch (GeneralSecurityException e) {
            throw file.problem("does not hold a " + algorithm + " private key like its certificate's (" + e.getMessage()
                    + "); give the key the certificate was issued for");
        }
    }

    /** Fails unless {@code key} signs what {@code certificate}'s public key verifies. */
    static void requireKeyMatches(PemFile keyFile, PrivateKey key, PemFile certificateFile, X509Certificate certificate) {
        byte[] challenge = "canopy tls key check".getBytes(StandardCharsets.US_ASCII);
        PublicKey publicKey = certificate.getPublicKey();
        String algorithm = switch (publicKey.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            case "Ed25519", "Ed448", "EdDSA" -> publicKey.getAlgorithm();
            default -> throw certificateFile.problem("has a " + publicKey.getAlgorithm() + " key; Canopy supports EC,"
                    + " RSA and EdDSA keys");
        };
        boolean matches;
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(challenge);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(publicKey);
            verifier.update(challenge);
            matches = verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            matches = false;
        }
        if (!matches) {
            throw keyFile.problem("is not the key of certificate " + certificateFile.path() + " ("
                    + certificate.getSubjectX500Principal().getName() + "); give the key it was issued for");
        }
    }

    /** Fails when {@code certificate} of {@code file} is not valid at {@code now}. */
    static void requireValid(PemFile file, X509Certificate certificate, Instant now) {
        try {
            certificate.checkValidity(Date.from(now));
        } catch (CertificateExpiredException e) {
            throw file.problem("holds a certificate (" + certificate.getSubjectX500Principal().getName() + ") that expired"
                    + " on " + certificate.getNotAfter().toInstant() + "; issue a new one (canopy keys --out DIR)");
        } catch (CertificateNotYetValidException e) {
            throw file.problem("holds a certificate (" + certificate.getSubjectX500Principal().getName() + ") that is"
                    + " not valid before " + certificate.getNotBefore().toInstant() + "; is this machine's clock right?");
        }
    }

    /** Fails unless {@code chain} (leaf first) leads to one of {@code authorities}, checked at {@code now}. */
    static void requireIssuedBy(PemFile certificateFile, List<X509Certificate> chain, PemFile caFile,
            List<X509Certificate> authorities, Instant now) {
        try {
            Set<TrustAnchor> anchors = new HashSet<>();
            authorities.forEach(authority -> anchors.add(new TrustAnchor(authority, null)));
            PKIXParameters parameters = new PKIXParameters(anchors);
            parameters.setRevocationEnabled(false);
            parameters.setDate(Date.from(now));
            // The anchor itself must not be in the path (a file may end its chain with the root).
            List<X509Certificate> path = new ArrayList<>(chain);
            path.removeIf(authorities::contains);
            if (path.isEmpty()) {
                throw certificateFile.problem("holds the CA's own certificate, not a node certificate it issued");
            }
            CertPathValidator.getInstance("PKIX").validate(
                    CertificateFactory.getInstance("X.509").generateCertPath(path), parameters);
        } catch (CertPathValidatorException e) {
            throw certificateFile.problem("is not issued by the CA in " + caFile.path() + " (" + e.getMessage()
                    + "); peers that trust that CA would refuse it: give the CA that issued it, or a certificate it issued");
        } catch (GeneralSecurityException e) {
            throw certificateFile.problem("cannot be checked against the CA in " + caFile.path() + " (" + e + ")");
        }
    }

    /** Fails unless {@code certificate} may act as TLS server and client (a node is both). */
    static void requireBothUsages(PemFile file, X509Certificate certificate) {
        List<String> usages;
        try {
            usages = certificate.getExtendedKeyUsage();
        } catch (CertificateParsingException e) {
            throw file.problem("has an unreadable extended key usage (" + e.getMessage() + ")");
        }
        if (usages == null || usages.contains(ANY_USAGE)) {
            return;
        }
        for (String usage : List.of(SERVER_AUTH, CLIENT_AUTH)) {
            if (!usages.contains(usage)) {
                throw file.problem("holds a certificate without the extended key usage "
                        + (usage.equals(SERVER_AUTH) ? "serverAuth" : "clientAuth") + "; a node is the TLS server of"
                        + " the connections it accepts and the client of those it opens: issue it with both");
            }
        }
    }
}
