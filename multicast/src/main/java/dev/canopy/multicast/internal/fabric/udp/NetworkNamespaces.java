package dev.canopy.multicast.internal.fabric.udp;

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
 * Emulated hosts for real network runs (real multicast: tests, {@code canopy bench multicast --fabric udp}; a
 * switched cluster with shaped links: {@code canopy bench segmentation}): one network namespace per host, each
 * with a veth pair whose other end sits on a Linux bridge in a namespace of its own (multicast snooping off, so
 * the bridge floods groups like a plain switch). Everything is created inside the new namespaces (a veth pair is
 * created in its host namespace with its peer moved straight into the bridge namespace): the machine's own
 * interfaces and routes are never touched. With a {@link LinkShape} both directions of every host's link are
 * shaped like a switch port (the host's transmit side and the bridge port towards the host), and segmentation
 * offload is off on both ends so that the queues hold wire-sized packets. {@link #close()} deletes the
 * namespaces, which removes every interface with them. Needs root and iproute2.
 *
 * <p>Names are {@code <prefix><pid>-<n>-br} and {@code ...-h<i>}, with the creating process's id, so that
 * {@link #removeStale(String)} can delete what a process killed before its cleanup left behind. Each user has a
 * prefix of its own ({@link #PREFIX} for multicast runs), so that one never sweeps another's.
 */
public final class NetworkNamespaces implements AutoCloseable {

    /**
     * The prefix of the multicast runs' namespaces ({@link #create(int)}): {@code canopy-mc-}, or the system property
     * {@code canopy.netns.prefix}, so that several users of one machine each clean up only their own.
     */
    public static final String PREFIX = System.getProperty("canopy.netns.prefix", "canopy-mc-");

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
            return Optional.of("runs on emulated hosts create network namespaces and need root (running as "
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

    /** {@code hosts} namespaces named {@link #PREFIX}..., links unshaped ({@link #create(String, int, Optional)}). */
    public static NetworkNamespaces create(int hosts) throws IOException {
        return create(PREFIX, hosts, Optional.empty());
    }

    /**
     * {@code hosts} namespaces whose names start with {@code namePrefix}, on one bridge, host i with address
     * {@link #addressOf(int)} on its eth0, every link shaped by {@code shape} if given.
     *
     * @throws IOException when a step fails (whatever was created is deleted again); the message holds ip's
     *                     own, e.g. "Operation not permitted" in a container without CAP_SYS_ADMIN
     */
    public static NetworkNamespaces create(String namePrefix, int hosts, Optional<LinkShape> shape) throws IOException {
        if (hosts < 1 || hosts > 250) {
            throw new IllegalArgumentException("hosts " + hosts + " must be 1 to 250 (one /24)");
        }
        if (!namePrefix.matches("[a-z][a-z0-9-]{0,15}-")) {
            throw new IllegalArgumentException("namespace prefix '" + namePrefix + "' must be 2 to 17 of a-z, 0-9 and"
                    + " '-', starting with a letter and ending with '-'");
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
                if (shape.isPresent()) {
                    shapeLink(host, "eth0", shape.get(), LinkShape.HOST_QUEUE_PACKETS);
                    shapeLink(bridge, "p" + i, shape.get(), shape.get().queuePackets());
                }
            }
            return namespaces;
        } catch (IOException | RuntimeException e) {
            namespaces.close();
            throw e;
        }
    }

    /**
     * One wire-sized packet per segment (no segmentation offload: a queue counts the packets a switch would see),
     * then the token bucket and the drop-tail FIFO of {@code packets} on {@code device}'s egress.
     */
    private static void shapeLink(String namespace, String device, LinkShape shape, int packets) throws IOException {
        ip("-n", namespace, "link", "set", "dev", device, "gso_max_segs", "1");
        for (List<String> arguments : shape.tcCommands(device, packets)) {
            List<String> command = new ArrayList<>(List.of("tc", "-n", namespace));
            command.addAll(arguments);
            run(command);
        }
    }

    /** {@link #removeStale(String)} for the multicast runs' prefix, {@link #PREFIX}. */
    public static List<String> removeStale() throws IOException {
        return removeStale(PREFIX);
    }

    /**
     * Deletes the namespaces named {@code namePrefix}... whose creating process is gone (killed before it could
     * clean up). Returns their names; namespaces of live processes and other prefixes are left alone.
     */
    public static List<String> removeStale(String namePrefix) throws IOException {
        List<String> removed = new ArrayList<>();
        for (String line : ip("netns", "list").split("\n")) {
            String name = line.strip().split("\\s+")[0];
            OptionalLong owner = ownerOf(namePrefix, name);
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

    /** The id of the process that created namespace {@code name}, when the name is a multicast run's. */
    static OptionalLong ownerOf(String name) {
        return ownerOf(PREFIX, name);
    }

    /** The id of the process that created namespace {@code name}, when the name is one of {@code namePrefix}. */
    static OptionalLong ownerOf(String namePrefix, String name) {
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
        return run(command);
    }

    /** Runs {@code command}; returns its output, or throws with the output when it fails. */
    private static String run(List<String> command) throws IOException {
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
