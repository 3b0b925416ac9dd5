package dev.canopy.processes;

import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.ZooKeeperTls;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link LaunchAgent} runs: its pool and name, the host and site it starts processes at, its warm pool,
 * the ZooKeeper it registers in and the job secret (the file its children are given, and the identity its
 * znodes belong to).
 *
 * @param warm how many warm JVMs it keeps ({@link WarmPool}); 0 starts every child cold
 */
public record AgentOptions(String pool, String agent, String host, String site, int warm, ChildStarter starter,
        String zooKeeper, Optional<ZooKeeperTls> zooKeeperTls, Path secretFile, JobSecret secret) {

    public AgentOptions {
        AgentZnodes.requireName(pool, "pool name");
        AgentZnodes.requireName(agent, "agent name");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(starter, "starter");
        Objects.requireNonNull(zooKeeper, "zooKeeper");
        Objects.requireNonNull(zooKeeperTls, "zooKeeperTls");
        Objects.requireNonNull(secret, "secret");
        secretFile = secretFile.toAbsolutePath();
        if (warm < 0) {
            throw new IllegalArgumentException("--warm must be 0 or more, got " + warm);
        }
    }
}
