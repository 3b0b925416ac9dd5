package dev.canopy.dynamic.spawn;

import dev.canopy.dynamic.DynamicOptions;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.Site;
import dev.canopy.processes.AgentOptions;
import dev.canopy.processes.ChildStarter;
import dev.canopy.processes.LaunchAgent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Spawning on one machine without {@code canopy agent}s: one agent per site of the grid, in this JVM, each
 * starting its children as JVMs of this machine emulated at its site. The children run
 * {@link SpawnedProgramEntry} with this JVM's class path and get a copy of the secret in a file only its owner
 * may read, deleted on {@link #close()}, which also kills every child. The children's output lines go to this
 * process's standard error, each prefixed with the child's job and process index.
 */
public final class LocalAgents implements AutoCloseable {

    private final List<LaunchAgent> agents;
    private final Path secretFile;

    private LocalAgents(List<LaunchAgent> agents, Path secretFile) {
        this.agents = agents;
        this.secretFile = secretFile;
    }

    /**
     * Starts the agents (blocking: call it from main or a worker) in {@code pool}, named {@code <site>}, with
     * {@code warm} warm JVMs each.
     */
    public static LocalAgents start(GridModel grid, DynamicOptions options, String pool, int warm) {
        Path secretFile;
        try {
            secretFile = options.secret().writeTemporary();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the job secret for the local agents", e);
        }
        List<LaunchAgent> agents = new ArrayList<>();
        LocalAgents local = new LocalAgents(agents, secretFile);
        try {
            for (Site site : grid.sites()) {
                ChildStarter starter = new ChildStarter(pool + "/" + site.name(), System.getProperty("java.class.path"),
                        SpawnedProgramEntry.class.getName(), System.getenv(), System.err::println);
                agents.add(LaunchAgent.start(new AgentOptions(pool, site.name(), "localhost", site.name(), warm, starter,
                        options.zooKeeper(), options.zooKeeperTls(), secretFile, options.secret())));
            }
        } catch (IOException | RuntimeException e) {
            local.close();
            throw new IllegalStateException("cannot start the local agents of pool " + pool + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            local.close();
            throw new IllegalStateException("interrupted while starting the local agents", e);
        }
        return local;
    }

    public List<LaunchAgent> agents() {
        return List.copyOf(agents);
    }

    /** Whether every agent's warm pool is full and warmed up. */
    public boolean warm(int perAgent) {
        return agents.stream().allMatch(agent -> agent.warmReady() >= perAgent);
    }

    @Override
    public void close() {
        agents.forEach(LaunchAgent::close);
        try {
            Files.deleteIfExists(secretFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + secretFile, e);
        }
    }
}
