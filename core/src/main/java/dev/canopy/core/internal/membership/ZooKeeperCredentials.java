package dev.canopy.core.internal.membership;

import dev.canopy.core.security.JobSecret;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * The ZooKeeper identity of one job's members: a user name and a password, sent to ZooKeeper with the
 * {@code digest} scheme. Every znode the job creates is readable and writable only by clients that
 * authenticated with the same pair (see {@link JobAclProvider}). Derive both from the job's secret, so every
 * member computes the same pair and nobody else can.
 *
 * <p>The password never appears in {@link #toString()}.
 */
public final class ZooKeeperCredentials {

    /** 128 bits: the password is a secret, not something a person types. */
    public static final int MIN_PASSWORD_BYTES = 16;

    private static final String JOB_USER = "canopy";
    private static final String PASSWORD_LABEL = "canopy/zookeeper/digest/v1";

    private final String user;
    private final byte[] password;

    public ZooKeeperCredentials(String user, byte[] password) {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (user.isEmpty() || user.indexOf(':') >= 0 || !user.chars().allMatch(c -> c > ' ' && c < 127)) {
            throw new IllegalArgumentException("ZooKeeper user \"" + user
                    + "\" must be non-empty printable ASCII without ':' or spaces");
        }
        if (password.length < MIN_PASSWORD_BYTES) {
            throw new IllegalArgumentException("ZooKeeper password has " + password.length + " bytes; at least "
                    + MIN_PASSWORD_BYTES + " are needed (derive it from the job secret)");
        }
        this.user = user;
        this.password = password.clone();
    }

    /**
     * The credentials every member of a job derives from its secret: user {@value #JOB_USER}, and a password
     * that proves knowledge of the secret without revealing it (a key derived for ZooKeeper alone).
     */
    public static ZooKeeperCredentials of(JobSecret secret) {
        return new ZooKeeperCredentials(JOB_USER, secret.derive(PASSWORD_LABEL));
    }

    public String user() {
        return user;
    }

    /**
     * The {@code digest} scheme's authentication text, {@code user:password} (the password in Base64, which
     * has no ':'), as bytes for {@code addAuthInfo}.
     */
    public byte[] digestAuthentication() {
        return (user + ":" + Base64.getEncoder().encodeToString(password)).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ZooKeeperCredentials that && user.equals(that.user)
                && Arrays.equals(password, that.password);
    }

    @Override
    public int hashCode() {
        return 31 * user.hashCode() + Arrays.hashCode(password);
    }

    @Override
    public String toString() {
        return "ZooKeeperCredentials[user=" + user + ", password=(hidden)]";
    }
}
