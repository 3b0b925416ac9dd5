package dev.canopy.cli.bench;

import java.util.List;
import java.util.Locale;

/** The text table of {@code canopy bench p2p}: one line per size, Canopy beside the NetSocket baseline. */
final class P2pTable {

    private P2pTable() {
    }

    static String render(List<Integer> sizes, List<P2pRow> rows, MachineInfo machine) {
        StringBuilder out = new StringBuilder();
        out.append("p2p over loopback between two JVMs; ").append(machine).append('\n');
        out.append("RTT = echo round trip of one message; throughput = payload MB/s (10^6 B) streamed with acks\n\n");
        out.append(String.format(Locale.ROOT, "%9s | %12s %12s %10s | %12s %12s %10s | %9s %9s%n", "size",
                "canopy p50", "canopy p99", "canopy", "netsock p50", "netsock p99", "netsock", "p50 ratio", "MB/s ratio"));
        out.append(String.format(Locale.ROOT, "%9s | %12s %12s %10s | %12s %12s %10s | %9s %9s%n", "bytes",
                "RTT us", "RTT us", "MB/s", "RTT us", "RTT us", "MB/s", "can/net", "can/net"));
        for (int size : sizes) {
            P2pRow canopy = row(rows, "canopy", size);
            P2pRow net = row(rows, "netsocket", size);
            out.append(String.format(Locale.ROOT, "%9d | %12.1f %12.1f %10.1f | %12.1f %12.1f %10.1f | %9.2f %9.2f%n",
                    size, canopy.medianRttMicros(), canopy.p99RttMicros(), canopy.throughputMBps(),
                    net.medianRttMicros(), net.p99RttMicros(), net.throughputMBps(),
                    canopy.medianRttMicros() / net.medianRttMicros(), canopy.throughputMBps() / net.throughputMBps()));
        }
        return out.toString();
    }

    private static P2pRow row(List<P2pRow> rows, String probe, int size) {
        return rows.stream().filter(r -> r.probe().equals(probe) && r.size() == size).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + probe + " result for " + size + " bytes"));
    }
}
