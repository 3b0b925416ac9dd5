package dev.canopy.core.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.util.Optional;

/**
 * For tests that need root-only kernel features (network namespaces, tc): they skip with the reason where those
 * are not allowed (not root, no iproute2, or a root that may not create namespaces: a container without
 * CAP_SYS_ADMIN), and run everywhere else.
 */
public final class RootOnly {

    /** A step that makes something with a root-only kernel feature. */
    @FunctionalInterface
    public interface Creation<T> {
        T create() throws IOException;
    }

    private RootOnly() {
    }

    /** Skips the test when {@code unavailable} says why the feature cannot be used here. */
    public static void assumeAvailable(Optional<String> unavailable) {
        assumeTrue(unavailable.isEmpty(), () -> "skipped: " + unavailable.orElse(""));
    }

    /**
     * What {@code creation} makes; the test skips when it failed because this root may not ("Operation not
     * permitted", "Permission denied"); any other failure fails the test.
     */
    public static <T> T createOrSkip(Creation<T> creation) throws IOException {
        try {
            return creation.create();
        } catch (IOException e) {
            boolean notPermitted = String.valueOf(e.getMessage()).contains("Operation not permitted")
                    || String.valueOf(e.getMessage()).contains("Permission denied");
            assumeTrue(!notPermitted, () -> "skipped: network namespaces cannot be created here: " + e.getMessage());
            throw e;
        }
    }
}
