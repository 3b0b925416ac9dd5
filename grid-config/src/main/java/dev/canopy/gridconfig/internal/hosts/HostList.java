package dev.canopy.gridconfig.internal.hosts;

import dev.canopy.gridconfig.Diagnostic;
import java.util.List;
import java.util.Objects;

/**
 * The hosts read from a hostfile or from Slurm's variables, in the launcher's order (the order in which it
 * hands out ranks), each once; or, when the input has problems, every problem found.
 *
 * @param source names the input in messages and comments: the hostfile's path, or the Slurm variable read
 */
public record HostList(String source, List<LaunchHost> hosts, List<Diagnostic> problems) {

    /** At most this many hosts: far beyond any cluster, small enough to keep a level file of them readable. */
    public static final int MAX_HOSTS = 100_000;

    public HostList {
        Objects.requireNonNull(source, "source");
        hosts = List.copyOf(hosts);
        problems = List.copyOf(problems);
    }

    public boolean isValid() {
        return problems.isEmpty();
    }

    /** The processes the hosts take: the sum of their slots. */
    public long slots() {
        return hosts.stream().mapToLong(LaunchHost::slots).sum();
    }
}
