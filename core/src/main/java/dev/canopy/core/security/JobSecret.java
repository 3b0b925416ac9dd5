package dev.canopy.core.security;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret every process of one job shares: 32 random bytes. It never travels in clear: processes
 * prove they know it (the transport's handshake, the datagram MAC, ZooKeeper digest credentials), each
 * with its own key {@linkplain #derive derived} from it.
 *
 * <p>On disk it is 64 hexadecimal digits (optionally followed by a newline, as {@code openssl rand -hex 32}
 * writes), in a file only its owner may read. {@link #fromFile} refuses anything else: a file group or
 * others may read, a file that is not a regular file, and a wrong size.
 */
public final class JobSecret {

    public static final int BYTES = 32;
    /** The largest file {@link #fromFile} reads: the hex digits and some trailing white space. */
    static final int MAX_FILE_BYTES = 256;
    private static final String HMAC = "HmacSHA256";
    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;

    private JobSecret(byte[] key) {
        this.key = key;
    }

    /** A new secret from {@link SecureRandom}. */
    public static JobSecret generate() {
        byte[] key = new byte[BYTES];
        RANDOM.nextBytes(key);
        return new JobSecret(key);
    }

    /** The secret of these exact bytes (tests, and keys handed over by other means); must be {@value #BYTES} bytes. */
    public static JobSecret of(byte[] key) {
        if (key.length != BYTES) {
            throw new IllegalArgumentException("a job secret is " + BYTES + " bytes, got " + key.length);
        }
        return new JobSecret(key.clone());
    }

    /**
     * Reads a secret file: a regular file of 64 hex digits (optionally followed by white space) that only its
     * owner may read (on POSIX file systems). Reads at most {@value #MAX_FILE_BYTES} bytes.
     *
     * @throws IllegalArgumentException naming the file, what is wrong and how to fix it
     */
    public static JobSecret fromFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("secret file " + file + (Files.exists(file)
                    ? " is not a regular file; give a file of " + 2 * BYTES + " hex digits"
                    : " does not exist; create one with `openssl rand -hex " + BYTES + " > " + file + "; chmod 600 "
                            + file + "`"));
        }
        refuseOpenPermissions(file);
        byte[] content = readBounded(file);
        String text = new String(content, StandardCharsets.US_ASCII).strip();
        if (content.length > MAX_FILE_BYTES || text.length() != 2 * BYTES) {
            throw new IllegalArgumentException("secret file " + file + " holds "
                    + (content.length > MAX_FILE_BYTES ? "more than " + MAX_FILE_BYTES + " bytes" : text.length() + " characters")
                    + "; a job secret is exactly " + 2 * BYTES + " hex digits (" + BYTES + " bytes)");
        }
        try {
            return new JobSecret(HexFormat.of().parseHex(text));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("secret file " + file + " is not " + 2 * BYTES + " hex digits ("
                    + e.getMessage() + ")", e);
        }
    }

    /** Writes this secret to a new file that only its owner may read or write (fails if the file exists). */
    public void writeTo(Path file) throws IOException {
        if (posix()) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } else {
            Files.createFile(file);
        }
        Files.writeString(file, toHex() + "\n", StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** Writes this secret to a new temporary file only its owner may read; the caller deletes it. */
    public Path writeTemporary() throws IOException {
        Path file = posix()
                ? Files.createTempFile("canopy-secret-", ".key", PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                : Files.createTempFile("canopy-secret-", ".key");
        Files.writeString(file, toHex() + "\n", StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
        return file;
    }

    /**
     * A 32-byte key for one purpose: HMAC-SHA-256 of {@code label} under the secret. Distinct labels give
     * independent keys, so a key given to one component (say, ZooKeeper) reveals nothing about another's.
     */
    public byte[] derive(String label) {
        return hmac(key, label.getBytes(StandardCharsets.UTF_8));
    }

    /** HMAC-SHA-256 of {@code data} under {@code key}. */
    public static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA-256 is not available in this JVM", e);
        }
    }

    /** A new HMAC-SHA-256 instance keyed with {@code key}, for repeated use by one thread. */
    public static Mac newMac(byte[] key) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA-256 is not available in this JVM", e);
        }
    }

    private String toHex() {
        return HexFormat.of().formatHex(key);
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    private static void refuseOpenPermissions(Path file) {
        if (!posix()) {
            return;
        }
        Set<PosixFilePermission> permissions;
        try {
            permissions = Files.getPosixFilePermissions(file);
        } catch (IOException | UnsupportedOperationException e) {
            return;
        }
        Set<PosixFilePermission> open = EnumSet.copyOf(permissions);
        open.retainAll(EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
                PosixFilePermission.OTHERS_EXECUTE));
        if (!open.isEmpty()) {
            throw new IllegalArgumentException("secret file " + file + " may be read or changed by others (mode "
                    + PosixFilePermissions.toString(permissions) + "); make it private with `chmod 600 " + file + "`");
        }
    }

    private static byte[] readBounded(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(MAX_FILE_BYTES + 1);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read secret file " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "JobSecret[redacted]";
    }
}
