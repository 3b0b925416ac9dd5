package dev.canopy.dynamic;

import dev.canopy.core.security.JobSecret;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.KeyAgreement;

/**
 * A fresh X25519 key pair for one agreement, as a join's two processes or a pairing's two roots use it: each sends
 * its public key, and both derive the same key from the shared secret and both public keys. Someone who only reads
 * the public keys (a socket's bytes, a pairing's znodes) learns nothing of the agreed key.
 */
final class EphemeralKey {

    static final int PUBLIC_KEY_BYTES = 44;

    private final KeyPair keys;

    private EphemeralKey(KeyPair keys) {
        this.keys = keys;
    }

    static EphemeralKey generate() {
        try {
            KeyPair keys = KeyPairGenerator.getInstance("X25519").generateKeyPair();
            if (keys.getPublic().getEncoded().length != PUBLIC_KEY_BYTES) {
                throw new IllegalStateException("this JVM encodes X25519 public keys in "
                        + keys.getPublic().getEncoded().length + " bytes, not " + PUBLIC_KEY_BYTES);
            }
            return new EphemeralKey(keys);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("X25519 is not available in this JVM", e);
        }
    }

    /** X.509 encoding, {@value #PUBLIC_KEY_BYTES} bytes. */
    byte[] publicKey() {
        return keys.getPublic().getEncoded();
    }

    /**
     * HMAC-SHA-256 of {@code label}, the accepting side's public key and the connecting side's under the X25519 secret
     * shared with the holder of {@code theirs}; {@code mine} says which side this key is.
     */
    byte[] agree(byte[] theirs, Side mine, String label, String where) {
        if (theirs.length != PUBLIC_KEY_BYTES || Arrays.equals(theirs, publicKey())) {
            throw new IllegalStateException(where + ": the other end's public key is " + theirs.length + " bytes"
                    + (theirs.length == PUBLIC_KEY_BYTES ? ", this process's own" : ", not " + PUBLIC_KEY_BYTES));
        }
        byte[] accepting = mine == Side.ACCEPT ? publicKey() : theirs;
        byte[] connecting = mine == Side.ACCEPT ? theirs : publicKey();
        try {
            KeyAgreement agreement = KeyAgreement.getInstance("X25519");
            agreement.init(keys.getPrivate());
            PublicKey peer = KeyFactory.getInstance("X25519").generatePublic(new X509EncodedKeySpec(theirs));
            agreement.doPhase(peer, true);
            byte[] prefix = label.getBytes(StandardCharsets.UTF_8);
            byte[] transcript = new byte[prefix.length + 2 * PUBLIC_KEY_BYTES];
            System.arraycopy(prefix, 0, transcript, 0, prefix.length);
            System.arraycopy(accepting, 0, transcript, prefix.length, PUBLIC_KEY_BYTES);
            System.arraycopy(connecting, 0, transcript, prefix.length + PUBLIC_KEY_BYTES, PUBLIC_KEY_BYTES);
            return JobSecret.hmac(agreement.generateSecret(), transcript);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(where + ": the other end's public key is not a usable X25519 key: "
                    + e.getMessage(), e);
        }
    }

    /** The job name of the transports keyed by {@code key}: the same at both ends, not guessable without the key. */
    static String jobName(String prefix, byte[] key) {
        return prefix + HexFormat.of().formatHex(JobSecret.hmac(key, "job".getBytes(StandardCharsets.US_ASCII)), 0, 16);
    }
}
