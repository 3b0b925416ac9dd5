package dev.canopy.multicast.fabric.udp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Emulated hosts for real multicast runs (tests, {@code canopy bench multicast --fabric udp}): one network
 * namespace per host, each with a veth pair whose other end sits on a Linux bridge in a namespace of its
 * own (multicast snooping off, so the bridge floods groups like a plain switch). Everything is created
 * inside the new namespaces (a veth pair is created in its host namespace with its peer moved straight
 * into the bridge namespace): the machine's own interfaces and routes are never touched. {@link #close()}
 * deletes the namespaces, which removes every interface with them. Needs root and iproute2.
 *
 * <p>Names are {@value #PREFIX}{@code <pid>-<n>-br} and {@code ...-h<i>}, with the creating process's id, so
 * that {@link #removeStale()} can delete what a process killed before its cleanup left behind.
 */
public final class NetworkNamespaces implements AutoCloseable {

    /** Every namespace this class creates starts with this. */
    public static final String PREFIX = "canopy-mc-";

    private static final Logger LOG = LoggerFactory.getLogger(NetworkNamespaces.class);
    private static final AtomicInteger CREATED = new AtomicInteger();

    private final String prefix;
    private final List<String> created = new ArrayList<>();
    private final int hosts;

    private NetworkNamespaces(String prefix, int hosts) {
        this.prefix = prefix;
        this.hosts = hosts;
    }

    /** Why namespaces cannot be created here, or empty when they can (as root with iproute2). */
    public static Optional<String> unavailableReason() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of("real multicast runs create network namespaces and need root (running as "
                    + System.getProperty("user.name") + ")");
        }
        try {
            Process probe = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
            if (!probe.waitFor(10, TimeUnit.SECONDS) || probe.exitValue() != 0) {
                return Optional.of("'ip netns list' failed: iproute2 cannot manage network namespaces here");
            }
        } catch (IOException e) {
            return Optional.of("iproute2 ('ip') is not installed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
        return Optional.empty();
    }

    /**
     * {@code hosts} namespaces on one bridge, host i with address {@link #addressOf(int)} on its eth0.
     *
     * @throws IOException when a step fails (whatever was created is deleted again); the message holds ip's
     *                     own, e.g. "Operation not permitted" in a container without CAP_SYS_ADMIN
     */
    public static NetworkNamespaces create(int hosts) throws IOException {
        return create(PREFIX, hosts);
    }

    /**
     * As {@link #create(int)}, with names starting with {@code namePrefix} instead of {@value #PREFIX} (for other
     * users of emulated hosts, each with a prefix of its own).
     */
    public static NetworkNamespaces create(String namePrefix, int hosts) throws IOException {
        if (hosts < 1 || hosts > 250) {
            throw new IllegalArgumentException("hosts " + hosts + " must be 1 to 250 (one /24)");
        }
        String prefix = namePrefix + ProcessHandle.current().pid() + "-" + CREATED.incrementAndGet();
        NetworkNamespaces namespaces = new NetworkNamespaces(prefix, hosts);
        try {
            String bridge = namespaces.add(prefix + "-br");
            ip("-n", bridge, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0");
            ip("-n", bridge, "link", "set", "br0", "up");
            for (int i = 0; i < hosts; i++) {
                String host = namespaces.add(namespaces.hostNamespace(i));
                ip("-n", host, "link", "add", "eth0", "type", "veth", "peer", "name", "p" + i, "netns", bridge);
                ip("-n", bridge, "link", "set", "p" + i, "master", "br0");
                ip("-n", bridge, "link", "set", "p" + i, "up");
                ip("-n", host, "addr", "add", addressOf(i) + "/24", "dev", "eth0");
                ip("-n", host, "link", "set", "eth0", "up");
                ip("-n", host, "link", "set", "lo", "up");
            }
            return namespaces;
        } catch (IOException | RuntimeException e) {
            namespaces.close();
            throw e;
        }
    }

    /**
     * Deletes the namespaces of this class whose creating process is gone (killed before it could clean up).
     * Returns their names; namespaces of live processes are left alone.
     */
    public static List<String> removeStale() throws IOException {
        return removeStale(PREFIX);
    }

    /** As {@link #removeStale()}, for the namespaces created with {@code namePrefix}. */
    public static List<String> removeStale(String namePrefix) throws IOException {
        List<String> removed = new ArrayList<>();
        for (String line : ip("netns", "list").split("\n")) {
            String name = line.strip().split("\\s+")[0];
            OptionalLong owner = ownerOf(name, namePrefix);
            if (owner.isPresent() && ProcessHandle.of(owner.getAsLong()).map(ProcessHandle::isAlive).orElse(false)) {
                continue;
            }
            if (owner.isPresent()) {
                ip("netns", "del", name);
                removed.add(name);
            }
        }
        if (!removed.isEmpty()) {
            LOG.info("removed network namespaces left by processes that are gone: {}", removed);
        }
        return removed;
    }

    /** The id of the process that created namespace {@code name}, when the name is one of this class's. */
    static OptionalLong ownerOf(String name) {
        return ownerOf(name, PREFIX);
    }

    private static OptionalLong ownerOf(String name, String namePrefix) {
        if (!name.startsWith(namePrefix)) {
            return OptionalLong.empty();
        }
        String rest = name.substring(namePrefix.length());
        int dash = rest.indexOf('-');
        try {
            return dash > 0 ? OptionalLong.of(Long.parseLong(rest.substring(0, dash))) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** The IPv4 address of host {@code i}: 10.213.0.(i+1). */
    public static String addressOf(int host) {
        return "10.213.0." + (host + 1);
    }

    public int hosts() {
        return hosts;
    }

    public String hostNamespace(int host) {
        return prefix + "-h" + host;
    }

    /** A process builder running {@code command} inside host {@code host}'s namespace. */
    public ProcessBuilder exec(int host, List<String> command) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", hostNamespace(host)));
        full.addAll(command);
        return new ProcessBuilder(full);
    }

    /** Deletes every namespace created (idempotent; safe from a shutdown hook). */
    @Override
    public synchronized void close() {
        for (int i = created.size() - 1; i >= 0; i--) {
            try {
                ip("netns", "del", created.get(i));
            } catch (IOException | RuntimeException e) {
                LOG.warn("could not delete network namespace {}: {}", created.get(i), e.getMessage());
            }
        }
        created.clear();
    }

    private synchronized String add(String name) throws IOException {
        ip("netns", "add", name);
        created.add(name);
        return name;
    }

    /** Runs ip with {@code args}; returns its output, or throws with the output when it fails. */
    private static String ip(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within 20 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (" + process.exitValue() + "): " + output);
        }
        return output;
    }
}
