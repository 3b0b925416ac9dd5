package dev.canopy.cli.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** The address of this machine that its routes use towards a host: where a server for the job's hosts should listen. */
final class LaunchAddress {

    private LaunchAddress() {
    }

    /**
     * The source address the kernel picks for traffic to {@code host} (connecting a UDP socket sends nothing).
     *
     * @throws IllegalArgumentException when {@code host} does not resolve or no route leads to it
     */
    static String towards(String host) {
        InetAddress target;
        try {
            target = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("host " + host + " does not resolve on this machine, so the launcher"
                    + " cannot tell which of its addresses the hosts reach it at for the embedded ZooKeeper; fix the"
                    + " name, or give a ZooKeeper every host reaches with --zk HOST:PORT");
        }
        if (target.isLoopbackAddress()) {
            return target.getHostAddress();
        }
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.connect(target, 9);
            InetAddress local = socket.getLocalAddress();
            if (local == null || local.isAnyLocalAddress()) {
                throw new IllegalArgumentException("no route from this machine to " + host + " (" + target.getHostAddress()
                        + "); give a ZooKeeper every host reaches with --zk HOST:PORT");
            }
            return local.getHostAddress();
        } catch (IOException | UncheckedIOException e) {
            throw new IllegalArgumentException("cannot find this machine's address towards " + host + " ("
                    + e.getMessage() + "); give a ZooKeeper every host reaches with --zk HOST:PORT", e);
        }
    }
}
