package dev.canopy.cli.collectives;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The addresses {@code canopy node} binds ({@code --host}) and advertises to its peers in ZooKeeper
 * ({@code --advertise}), checked before anything starts. {@code --host} must resolve to an address of
 * this machine, or be the wildcard ({@code 0.0.0.0}, {@code ::}), which then needs {@code --advertise}
 * with an address of this machine. With a specific {@code --host}, {@code --advertise} may only name
 * that same address. Both come out as IP literals: peers connect to the literal, and probes compare it
 * with the sender address of datagrams.
 */
final class NodeAddresses {

    /** Resolves a host name or IP literal (the system resolver outside tests). */
    @FunctionalInterface
    interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** The addresses of this machine's interfaces (outside tests, from {@link NetworkInterface}). */
    @FunctionalInterface
    interface Interfaces {
        List<InetAddress> addresses() throws SocketException;
    }

    /** The outcome: the addresses to use, or why the options cannot be used. */
    sealed interface Checked permits Usable, Refused {
    }

    /** Bind {@code bindHost}, tell peers {@code advertisedHost}; both IP literals. */
    record Usable(String bindHost, String advertisedHost) implements Checked {
    }

    /** What is wrong and how to fix it, naming the option. */
    record Refused(String message) implements Checked {
    }

    static final String DEFAULT_HOST = "127.0.0.1";

    private final Resolver resolver;
    private final Interfaces interfaces;

    NodeAddresses(Resolver resolver, Interfaces interfaces) {
        this.resolver = resolver;
        this.interfaces = interfaces;
    }

    /** Checks against this machine's resolver and interfaces. */
    static NodeAddresses ofThisMachine() {
        return new NodeAddresses(InetAddress::getAllByName, NodeAddresses::interfaceAddresses);
    }

    Checked check(String host, Optional<String> advertise) {
        List<InetAddress> local;
        try {
            local = interfaces.addresses();
        } catch (SocketException e) {
            return new Refused("cannot list this machine's network interfaces to check --host " + host + ": "
                    + e.getMessage());
        }
        Optional<InetAddress[]> hostAddresses = resolve(host);
        if (hostAddresses.isEmpty()) {
            return new Refused("--host " + host + " does not resolve to an address; give an IP address or a name of"
                    + " this machine, for example --host " + DEFAULT_HOST);
        }
        Optional<InetAddress> wildcard = Arrays.stream(hostAddresses.get()).filter(InetAddress::isAnyLocalAddress)
                .findFirst();
        if (wildcard.isPresent()) {
            return advertisedFor(host, wildcard.get(), advertise, local);
        }
        Optional<InetAddress> bound = firstOfThisMachine(hostAddresses.get(), local);
        if (bound.isEmpty()) {
            return new Refused("--host " + host + " is not an address of this machine (it has " + literals(local)
                    + "); give one of these, or --host 0.0.0.0 with --advertise ADDRESS");
        }
        String literal = bound.get().getHostAddress();
        if (advertise.isPresent()) {
            Optional<InetAddress[]> advertised = resolve(advertise.get());
            if (advertised.isEmpty() || !Arrays.asList(advertised.get()).contains(bound.get())) {
                return new Refused("--advertise " + advertise.get() + " is not the address --host " + host
                        + " binds (" + literal + "), so peers would not reach this node there; leave out --advertise,"
                        + " or bind every interface with --host 0.0.0.0");
            }
        }
        return new Usable(literal, literal);
    }

    private Checked advertisedFor(String host, InetAddress wildcard, Optional<String> advertise,
            List<InetAddress> local) {
        if (advertise.isEmpty()) {
            return new Refused("--host " + host + " listens on every interface, but peers need one address to reach"
                    + " this node: add --advertise ADDRESS, an address of this machine the other hosts can reach"
                    + " (it has " + literals(local) + ")");
        }
        Optional<InetAddress[]> advertised = resolve(advertise.get());
        if (advertised.isEmpty()) {
            return new Refused("--advertise " + advertise.get() + " does not resolve to an address; give an IP address"
                    + " or a name of this machine (it has " + literals(local) + ")");
        }
        if (Arrays.stream(advertised.get()).allMatch(InetAddress::isAnyLocalAddress)) {
            return new Refused("--advertise " + advertise.get() + " is a wildcard address that peers cannot connect to;"
                    + " give an address of this machine (it has " + literals(local) + ")");
        }
        Optional<InetAddress> chosen = firstOfThisMachine(advertised.get(), local);
        if (chosen.isEmpty()) {
            return new Refused("--advertise " + advertise.get() + " is not an address of this machine (it has "
                    + literals(local) + "); give one of these");
        }
        return new Usable(wildcard.getHostAddress(), chosen.get().getHostAddress());
    }

    private Optional<InetAddress[]> resolve(String host) {
        if (host.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(resolver.resolve(host.strip()));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static Optional<InetAddress> firstOfThisMachine(InetAddress[] candidates, List<InetAddress> local) {
        return Arrays.stream(candidates)
                .filter(address -> !address.isAnyLocalAddress())
                .filter(address -> address.isLoopbackAddress() || local.contains(address))
                .findFirst();
    }

    /** The addresses as literals, IPv4 first, as a user would pick one. */
    private static String literals(List<InetAddress> addresses) {
        return String.join(", ", addresses.stream()
                .sorted(Comparator.comparing((InetAddress address) -> address instanceof Inet6Address))
                .map(InetAddress::getHostAddress)
                .toList());
    }

    private static List<InetAddress> interfaceAddresses() throws SocketException {
        return Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(NetworkInterface::inetAddresses)
                .toList();
    }
}
