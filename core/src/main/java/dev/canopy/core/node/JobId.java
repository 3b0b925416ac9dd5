package dev.canopy.core.node;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The name of one job: every node started with the same job name joins the same membership and
 * rank table. Safe as a ZooKeeper path segment. {@link #frameKey()} is the 64-bit number frames carry.
 */
public record JobId(String name) {

    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    public JobId {
        Objects.requireNonNull(name, "name");
        if (!ALLOWED.matcher(name).matches() || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("job name '" + name
                    + "' must be 1 to 64 characters of letters, digits and . _ - (and not . or ..)");
        }
    }

    public static JobId of(String name) {
        return new JobId(name);
    }

    /** A stable 64-bit key of the name (FNV-1a over its UTF-8 bytes), identical on every node. */
    public long frameKey() {
        long hash = FNV_OFFSET_BASIS;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= FNV_PRIME;
        }
        return hash;
    }

    @Override
    public String toString() {
        return name;
    }
}
