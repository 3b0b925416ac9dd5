package dev.canopy.processes;

import dev.canopy.core.node.CanopyVertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The command line of a Canopy JVM on this machine: {@code java}, the options for many JVMs per core, the
 * options of {@value #ENV_JAVA_OPTS}, then the given class path, main class and arguments. Shared by
 * {@code canopy launch} and the {@link ChildStarter}, so launched and spawned processes start alike.
 */
public final class JvmCommand {

    /** Extra JVM options, split at white space, added after Canopy's own. */
    public static final String ENV_JAVA_OPTS = "CANOPY_JAVA_OPTS";

    /**
     * Every process of a job may run on this one machine, often many per core: the quick C1 compiler and the
     * serial collector keep each JVM from starting compiler and GC threads that would starve the others' event
     * loops while they load classes. A JVM out of heap exits at once (status 3) rather than limp on.
     */
    public static final List<String> SHARED_MACHINE_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-Xss512k", "-XX:+ExitOnOutOfMemoryError", "-D" + CanopyVertx.DISABLE_DNS_CLIENT + "=true");

    private JvmCommand() {
    }

    /**
     * {@code java} of this JVM's installation with {@link #SHARED_MACHINE_OPTIONS}, {@value #ENV_JAVA_OPTS} from
     * {@code environment}, then {@code properties} (as {@code -D...}, so ps and tests can tell processes apart),
     * {@code -cp classpath mainClass arguments}.
     */
    public static List<String> of(Map<String, String> environment, List<String> properties, String classpath,
            String mainClass, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(SHARED_MACHINE_OPTIONS);
        String extraOptions = environment.get(ENV_JAVA_OPTS);
        if (extraOptions != null && !extraOptions.isBlank()) {
            command.addAll(List.of(extraOptions.trim().split("\\s+")));
        }
        properties.forEach(property -> command.add("-D" + property));
        command.addAll(List.of("-cp", classpath, mainClass));
        command.addAll(arguments);
        return command;
    }
}
