package dev.canopy.core.node;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** The local addresses of the UDP sockets a process holds, read from Linux's /proc (the test is skipped elsewhere). */
final class BoundSockets {

    private BoundSockets() {
    }

    /** {@code host:port} of every UDP socket (IPv4 and IPv6) process {@code pid} has open. */
    static List<String> udp(long pid) {
        Path fds = Path.of("/proc", Long.toString(pid), "fd");
        assumeTrue(Files.isDirectory(fds), "needs Linux /proc to list a process's sockets");
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> links = Files.list(fds)) {
            links.forEach(link -> {
                try {
                    String target = Files.readSymbolicLink(link).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException e) {
                    // The descriptor closed meanwhile.
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> bound = new ArrayList<>();
        for (String table : List.of("udp", "udp6")) {
            Path file = Path.of("/proc", Long.toString(pid), "net", table);
            try {
                for (String line : Files.readAllLines(file).subList(1, Files.readAllLines(file).size())) {
                    String[] fields = line.trim().split("\\s+");
                    if (inodes.contains(fields[9])) {
                        bound.add(address(fields[1]));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return bound;
    }

    /** /proc's {@code 0100007F:1F90} (little-endian words) as {@code 127.0.0.1:8080}. */
    private static String address(String hex) {
        String[] parts = hex.split(":");
        byte[] raw = HexFormat.of().parseHex(parts[0]);
        byte[] ordered = new byte[raw.length];
        for (int word = 0; word < raw.length; word += 4) {
            for (int i = 0; i < 4; i++) {
                ordered[word + i] = raw[word + 3 - i];
            }
        }
        try {
            return InetAddress.getByAddress(ordered).getHostAddress() + ":" + Integer.parseInt(parts[1], 16);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
