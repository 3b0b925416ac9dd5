package dev.canopy.multicast.internal.groups;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The name of one multicast group within a job: every member that opens the same key gets the same group.
 * It is a znode name under the job's subtree, so it is 1 to 100 characters of {@code [A-Za-z0-9._-]}.
 */
public record GroupKey(String name) {

    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._-]{1,100}");

    public GroupKey {
        Objects.requireNonNull(name, "name");
        if (!ALLOWED.matcher(name).matches() || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("multicast group key \"" + name.replaceAll("\\p{Cntrl}", "?")
                    + "\" must be 1 to 100 characters of A-Z a-z 0-9 . _ - (and not . or ..)");
        }
    }

    /** The static group of the communicator with {@code context}. */
    public static GroupKey communicator(int context) {
        return new GroupKey("c" + Integer.toUnsignedString(context));
    }

    /**
     * The group of leaf group {@code group} (a LAN or cluster) at level {@code level} of the communicator with
     * {@code context}, which its bcast layer multicasts in.
     */
    public static GroupKey leaf(int context, String level, int group) {
        return new GroupKey("c" + Integer.toUnsignedString(context) + "-" + level + "-" + group);
    }

    /**
     * The group of a target set of the communicator with {@code context}: of operation {@code id} (dynamic)
     * or of persistent request {@code id} (persistent).
     */
    public static GroupKey target(int context, GroupPolicy policy, long id) {
        return new GroupKey("c" + Integer.toUnsignedString(context) + "-" + policy.configName() + "-"
                + Long.toUnsignedString(id));
    }

    @Override
    public String toString() {
        return name;
    }
}
