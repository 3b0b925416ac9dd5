package dev.canopy.multicast.internal.groups;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How a communicator manages its multicast groups (design note group-management.md; issue 14).
 */
public enum GroupPolicy {
    /** One group per communicator, created with it and destroyed with it. */
    STATIC,
    /** For each one-to-many operation a temporary group of the target set, dropped after the operation. */
    DYNAMIC,
    /** The group is set up once when a persistent request is initialised and kept until the request closes. */
    PERSISTENT,
    /** No group: the root sends each target its piece point-to-point (the baseline every scheme must beat). */
    TREE,
    /** The cost model chooses, from management costs measured on the deployment. */
    AUTO;

    /** {@code static}, {@code dynamic}, {@code persistent}, {@code tree}, {@code auto}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The policy named {@code text} (any case), or empty. */
    public static Optional<GroupPolicy> fromConfigName(String text) {
        return Arrays.stream(values()).filter(policy -> policy.configName().equalsIgnoreCase(text.strip())).findFirst();
    }
}
