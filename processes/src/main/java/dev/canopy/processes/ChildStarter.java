package dev.canopy.processes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Starts child JVMs on this machine running {@link ChildMain} with one {@link ChildEntry}: cold ones, bound to
 * their program at once, and warm ones, left waiting for a binding ({@link WarmPool}).
 *
 * @param label marks the children's command lines ({@code -Dcanopy.starter=label}), so ps (and tests) can tell whose
 *        children they are
 * @param classpath the children's class path (Canopy's own and the programs')
 * @param entryClass the {@link ChildEntry} every child runs
 * @param environment the environment the children inherit ({@value JvmCommand#ENV_JAVA_OPTS} is read from it)
 * @param output where the children's output lines go, each prefixed with the child's job and process index
 */
public record ChildStarter(String label, String classpath, String entryClass, Map<String, String> environment,
        Consumer<String> output) {

    /** The system property ({@code true}) a warm child is started with: its entry may prepare more while it waits. */
    public static final String WARM_PROPERTY = "canopy.warm";
    /**
     * The ZooKeeper ensemble ({@code host:port,...}) of the agent whose pool a warm child waits in: the child connects
     * to it before it is bound, without credentials (it has none yet), so its join does not wait for a connect.
     */
    public static final String WARM_ZOOKEEPER_PROPERTY = "canopy.warm.zk";
    /** The agent's ZooKeeper TLS directory (a path), when it reaches the ensemble over TLS. */
    public static final String WARM_ZOOKEEPER_TLS_PROPERTY = "canopy.warm.zk-tls";

    public ChildStarter {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(classpath, "classpath");
        Objects.requireNonNull(entryClass, "entryClass");
        environment = Map.copyOf(environment);
        Objects.requireNonNull(output, "output");
    }

    /** A starter for children with this JVM's own class path, environment and standard output. */
    public static ChildStarter sameClasspath(String label, String entryClass) {
        return new ChildStarter(label, System.getProperty("java.class.path"), entryClass, System.getenv(),
                System.out::println);
    }

    /** Starts a child and binds it to {@code binding} at once. */
    public StartedChild startCold(ChildBinding binding) {
        StartedChild child = start(List.of("canopy.starter=" + label, "canopy.job=" + binding.job(),
                "canopy.process=" + binding.processIndex()));
        child.bind(binding);
        return child;
    }

    /** Starts a child that warms up and waits for its binding. */
    public StartedChild startWarm() {
        return startWarm(Map.of());
    }

    /**
     * Starts a child that warms up and waits for its binding, with {@code properties} (system properties, such as
     * {@link #WARM_ZOOKEEPER_PROPERTY}: what it may prepare before it is bound; never a secret).
     */
    public StartedChild startWarm(Map<String, String> properties) {
        List<String> given = new ArrayList<>(List.of("canopy.starter=" + label, WARM_PROPERTY + "=true"));
        new TreeMap<>(properties).forEach((name, value) -> given.add(name + "=" + value));
        return start(given);
    }

    private StartedChild start(List<String> properties) {
        ProcessBuilder builder = new ProcessBuilder(JvmCommand.of(environment, properties, classpath,
                ChildMain.class.getName(), List.of(entryClass))).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(environment);
        try {
            Process process = builder.redirectInput(ProcessBuilder.Redirect.PIPE).start();
            return new StartedChild(process, "[child " + process.pid() + "] ", output);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a child JVM (" + builder.command().get(0) + ")", e);
        }
    }
}
