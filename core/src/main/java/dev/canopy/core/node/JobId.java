package dev.canopy.core.node;

import dev.canopy.core.internal.frame.Frame;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The name of one job: every node started with the same job name joins the same membership and
 * rank table. Safe as a ZooKeeper path segment. {@link #frameKey()} is the 64-bit number frames carry.
 */
public record JobId(String name) {

    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._-]{1,64}");

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

    /** The 64-bit job id frames carry, {@link Frame#jobId(String)} of the name. */
    public long frameKey() {
        return Frame.jobId(name);
    }

    @Override
    public String toString() {
        return name;
    }
}
