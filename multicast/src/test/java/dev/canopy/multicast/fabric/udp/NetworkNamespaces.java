package dev.canopy.multicast.fabric.udp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Emulated hosts for real multicast tests: one network namespace per host, each with a veth pair whose
 * other end sits on a Linux bridge in a namespace of its own (multicast snooping off, so the bridge
 * floods groups like a plain switch). Everything is created inside the new namespaces (a veth pair is
 * created in its host namespace with its peer moved straight into the bridge namespace): the machine's
 * own interfaces and routes are never touched. {@link #close()} deletes the namespaces, which removes
 * every interface with them. Needs root and iproute2.
 */
final class NetworkNamespaces implements AutoCloseable {

    private final String prefix;
    private final List<String> created = new ArrayList<>();
    private final int hosts;

    private NetworkNamespaces(String prefix, int hosts) {
        this.prefix = prefix;
        this.hosts = hosts;
    }

    /** Why namespaces cannot be created here, or empty when they can (as root with iproute2). */
    static Optional<String> unavailableReason() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of("real multicast tests create network namespaces and need root (running as "
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

    /** {@code hosts} namespaces on one bridge, host i with address {@link #addressOf(int)} on its eth0. */
    static NetworkNamespaces create(int hosts) throws IOException {
        String prefix = "cmc" + Integer.toHexString(new SplittableRandom().nextInt(0x1000, 0x10000));
        NetworkNamespaces namespaces = new NetworkNamespaces(prefix, hosts);
        try {
            String bridge = namespaces.add(prefix + "-br");
            namespaces.ip("-n", bridge, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0");
            namespaces.ip("-n", bridge, "link", "set", "br0", "up");
            for (int i = 0; i < hosts; i++) {
                String host = namespaces.add(namespaces.hostNamespace(i));
                namespaces.ip("-n", host, "link", "add", "eth0", "type", "veth", "peer", "name", "p" + i, "netns", bridge);
                namespaces.ip("-n", bridge, "link", "set", "p" + i, "master", "br0");
                namespaces.ip("-n", bridge, "link", "set", "p" + i, "up");
                namespaces.ip("-n", host, "addr", "add", addressOf(i) + "/24", "dev", "eth0");
                namespaces.ip("-n", host, "link", "set", "eth0", "up");
                namespaces.ip("-n", host, "link", "set", "lo", "up");
            }
            return namespaces;
        } catch (IOException | RuntimeException e) {
            namespaces.close();
            throw e;
        }
    }

    /** The IPv4 address of host {@code i}: 10.213.0.(i+1). */
    static String addressOf(int host) {
        return "10.213.0." + (host + 1);
    }

    int hosts() {
        return hosts;
    }

    String hostNamespace(int host) {
        return prefix + "-h" + host;
    }

    /** A process builder running {@code command} inside host {@code host}'s namespace. */
    ProcessBuilder exec(int host, List<String> command) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", hostNamespace(host)));
        full.addAll(command);
        return new ProcessBuilder(full);
    }

    @Override
    public void close() {
        for (int i = created.size() - 1; i >= 0; i--) {
            try {
                ip("netns", "del", created.get(i));
            } catch (IOException | RuntimeException e) {
                System.err.println("could not delete network namespace " + created.get(i) + ": " + e.getMessage());
            }
        }
        created.clear();
    }

    private String add(String name) throws IOException {
        ip("netns", "add", name);
        created.add(name);
        return name;
    }

    private void ip(String... args) throws IOException {
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
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
        if (process.exitValue() != 0) {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            throw new IOException(String.join(" ", command) + " failed (" + process.exitValue() + "): " + output);
        }
    }
}
