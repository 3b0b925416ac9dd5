package dev.canopy.dynamic;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The content of a name-service znode: a JSON body sealed by core's {@link dev.canopy.core.internal.membership.ZnodeSeal}
 * (HMAC-SHA-256 over the znode's path and the body under a key derived from the secret), and fields that must
 * also stay secret encrypted inside it. A znode is used only when its MAC is right, so what a client without the
 * secret put there (on an ensemble that admits it) is refused, and a sealed record cannot be moved to another path.
 */
final class NameRecordSeal {

    private static final String MAC_LABEL = "canopy/names/v1";
    private static final String ENCRYPTION_LABEL = "canopy/names/encryption/v1";
    private static final String CIPHER = "AES/GCM/NoPadding";
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** A record lists a group's members (about 200 bytes each); ZooKeeper's own limit is 1 MiB. */
    static final int MAX_BODY_CHARS = 1 << 20;

    private final dev.canopy.core.internal.membership.ZnodeSeal seal;
    private final SecretKeySpec encryptionKey;

    NameRecordSeal(JobSecret secret) {
        this.seal = new dev.canopy.core.internal.membership.ZnodeSeal(secret, MAC_LABEL, MAX_BODY_CHARS);
        this.encryptionKey = new SecretKeySpec(secret.derive(ENCRYPTION_LABEL), "AES");
    }

    /**
     * {@code plain} encrypted for the znode at {@code path}, as hex: AES-256-GCM under a key derived from the secret,
     * a random IV, the path authenticated with it. For what a sealed body must also keep secret (a port's key): the
     * MAC alone keeps it from being forged, not from being read by whoever sees ZooKeeper's traffic or snapshots.
     */
    String encrypt(String path, byte[] plain) {
        byte[] iv = new byte[IV_BYTES];
        RANDOM.nextBytes(iv);
        try {
            Cipher cipher = Cipher.getInstance(CIPHER);
            cipher.init(Cipher.ENCRYPT_MODE, encryptionKey, new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(path.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plain);
            byte[] out = new byte[IV_BYTES + sealed.length];
            System.arraycopy(iv, 0, out, 0, IV_BYTES);
            System.arraycopy(sealed, 0, out, IV_BYTES, sealed.length);
            return HexFormat.of().formatHex(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        }
    }

    /** How many characters {@link #encrypt} makes of {@code plainBytes} bytes: IV, ciphertext and tag, in hex. */
    static int encryptedChars(int plainBytes) {
        return 2 * (IV_BYTES + plainBytes + TAG_BITS / 8);
    }

    /** What {@link #encrypt} sealed for {@code path}; a {@link MalformedZnodeException} for anything else. */
    byte[] decrypt(String path, String hex) {
        byte[] in;
        try {
            in = HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(path, "holds an encrypted field that is not hexadecimal");
        }
        if (in.length <= IV_BYTES + TAG_BITS / 8) {
            throw new MalformedZnodeException(path, "holds an encrypted field too short to be one");
        }
        try {
            Cipher cipher = Cipher.getInstance(CIPHER);
            cipher.init(Cipher.DECRYPT_MODE, encryptionKey, new GCMParameterSpec(TAG_BITS, in, 0, IV_BYTES));
            cipher.updateAAD(path.getBytes(StandardCharsets.UTF_8));
            return cipher.doFinal(in, IV_BYTES, in.length - IV_BYTES);
        } catch (AEADBadTagException e) {
            throw new MalformedZnodeException(path, "holds an encrypted field not sealed with this secret for this path");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        }
    }

    byte[] seal(String path, JsonObject body) {
        return seal.seal(path, body.encode());
    }

    /** The body of {@code stored} at {@code path}; a {@link MalformedZnodeException} unless it is sealed with this secret. */
    ZnodeJson open(String path, byte[] stored) {
        String body = seal.open(path, stored).orElseThrow(() -> new MalformedZnodeException(path,
                "is not sealed with this job's secret (wrong MAC)", "only processes given the same name-service secret"
                        + " (CANOPY_NAMES_SECRET_FILE, or else the same --secret-file) may use one namespace of the"
                        + " name service"));
        return ZnodeJson.parse(body.getBytes(StandardCharsets.UTF_8), path);
    }
}
