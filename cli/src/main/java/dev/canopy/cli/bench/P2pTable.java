package dev.canopy.cli.bench;

import java.util.List;
import java.util.Locale;

/** The text table of {@code canopy bench p2p}: one line per size, Canopy over TCP and TLS beside the NetSocket baseline. */
final class P2pTable {

    private P2pTable() {
    }

    static String render(List<Integer> sizes, List<P2pRow> rows, MachineInfo machine) {
        StringBuilder out = new StringBuilder();
        out.append("p2p over loopback between two JVMs; ").append(machine).append('\n');
        out.append("RTT = echo round trip of one message; throughput = payload MB/s (10^6 B) streamed with acks;\n");
        out.append("canopy = Canopy's transport over TCP, tls = the same over TLS 1.3, netsock = plain Vert.x NetSocket\n\n");
        String header = "%9s | %10s %10s %8s | %10s %10s %8s | %11s %11s %8s | %7s %7s | %7s %7s%n";
        out.append(String.format(Locale.ROOT, header, "size", "canopy p50", "canopy p99", "canopy", "tls p50", "tls p99",
                "tls", "netsock p50", "netsock p99", "netsock", "p50", "MB/s", "p50", "MB/s"));
        out.append(String.format(Locale.ROOT, header, "bytes", "RTT us", "RTT us", "MB/s", "RTT us", "RTT us", "MB/s",
                "RTT us", "RTT us", "MB/s", "can/net", "can/net", "tls/can", "tls/can"));
        for (int size : sizes) {
            P2pRow canopy = row(rows, CanopyProbe.PLAIN, size);
            P2pRow tls = row(rows, CanopyProbe.TLS, size);
            P2pRow net = row(rows, "netsocket", size);
            out.append(String.format(Locale.ROOT,
                    "%9d | %10.1f %10.1f %8.1f | %10.1f %10.1f %8.1f | %11.1f %11.1f %8.1f | %7.2f %7.2f | %7.2f %7.2f%n",
                    size, canopy.medianRttMicros(), canopy.p99RttMicros(), canopy.throughputMBps(),
                    tls.medianRttMicros(), tls.p99RttMicros(), tls.throughputMBps(),
                    net.medianRttMicros(), net.p99RttMicros(), net.throughputMBps(),
                    canopy.medianRttMicros() / net.medianRttMicros(), canopy.throughputMBps() / net.throughputMBps(),
                    tls.medianRttMicros() / canopy.medianRttMicros(), tls.throughputMBps() / canopy.throughputMBps()));
        }
        return out.toString();
    }

    private static P2pRow row(List<P2pRow> rows, String probe, int size) {
        return rows.stream().filter(r -> r.probe().equals(probe) && r.size() == size).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + probe + " result for " + size + " bytes"));
    }
}
