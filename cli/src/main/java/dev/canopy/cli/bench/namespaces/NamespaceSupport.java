package dev.canopy.cli.bench.namespaces;

import dev.canopy.multicast.internal.fabric.udp.NetworkNamespaces;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Whether the bench commands can build network namespaces on this machine, and what they say when they cannot:
 * a command that needs them refuses and asks to be run as root ({@link #runAsRoot}); one that can do without
 * notes in its report what ran instead ({@link #udpFallback}).
 */
public final class NamespaceSupport {

    /** Why network namespaces cannot be created here (empty: they can); tests replace it. */
    public static volatile Supplier<Optional<String>> unavailable = NetworkNamespaces::unavailableReason;

    private NamespaceSupport() {
    }

    /** Why namespaces cannot be created here; empty when they can. */
    public static Optional<String> unavailableReason() {
        return unavailable.get();
    }

    /**
     * The refusal of {@code canopy <command>}, which {@code needs} network namespaces (what it builds of them):
     * {@code why} it cannot here, and to run it as root.
     */
    public static String runAsRoot(String command, String needs, String why) {
        return needs + ": " + why + "; run it as root (sudo canopy " + command + " ...)";
    }

    /** The report's note when {@code --fabric udp} could not run: {@code why}, and what ran {@code instead}. */
    public static String udpFallback(String why, String instead) {
        return "--fabric udp: " + why + "; " + instead;
    }
}
