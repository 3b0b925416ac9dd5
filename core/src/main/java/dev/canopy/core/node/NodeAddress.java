package dev.canopy.core.node;

import java.util.Objects;

/** Where a node listens: one host, a TCP port for reliable frames and a UDP port for datagrams. */
public record NodeAddress(String host, int tcpPort, int udpPort) {

    public NodeAddress {
        Objects.requireNonNull(host, "host");
        requirePort(tcpPort, "tcpPort");
        requirePort(udpPort, "udpPort");
    }

    private static void requirePort(int port, String field) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(field + " " + port + " is not a port (1 to 65535)");
        }
    }
}
