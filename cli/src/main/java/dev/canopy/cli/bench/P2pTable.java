package dev.canopy.cli.bench;

import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import java.util.List;

/** The text table of {@code canopy bench p2p}: one line per size, Canopy over TCP and TLS beside the NetSocket baseline. */
final class P2pTable {

    private P2pTable() {
    }

    static String render(List<Integer> sizes, List<P2pRow> rows, MachineInfo machine) {
        StringBuilder out = new StringBuilder();
        out.append("p2p over loopback between two JVMs; ").append(machine).append('\n');
        out.append("p50, p99 = percentiles of the RTT, the echo round trip of one message; throughput = payload MB/s (10^6 B) streamed with acks;\n");
        out.append("canopy = Canopy's transport over TCP, tls = the same over TLS 1.3, netsock = plain Vert.x NetSocket;\n"
                + "can/net and tls/can = ratios of the p50 RTTs and of the throughputs\n\n");
        TextTable table = TextTable.of(Column.integer("size", "B"),
                Column.decimal("canopy p50", "us", 1), Column.decimal("canopy p99", "us", 1), Column.decimal("canopy", "MB/s", 1),
                Column.decimal("tls p50", "us", 1), Column.decimal("tls p99", "us", 1), Column.decimal("tls", "MB/s", 1),
                Column.decimal("netsock p50", "us", 1), Column.decimal("netsock p99", "us", 1),
                Column.decimal("netsock", "MB/s", 1),
                Column.decimal("can/net p50", null, 2), Column.decimal("can/net MB/s", null, 2),
                Column.decimal("tls/can p50", null, 2), Column.decimal("tls/can MB/s", null, 2));
        for (int size : sizes) {
            P2pRow canopy = row(rows, CanopyProbe.PLAIN, size);
            P2pRow tls = row(rows, CanopyProbe.TLS, size);
            P2pRow net = row(rows, "netsocket", size);
            table.row(size, canopy.medianRttMicros(), canopy.p99RttMicros(), canopy.throughputMBps(),
                    tls.medianRttMicros(), tls.p99RttMicros(), tls.throughputMBps(),
                    net.medianRttMicros(), net.p99RttMicros(), net.throughputMBps(),
                    canopy.medianRttMicros() / net.medianRttMicros(), canopy.throughputMBps() / net.throughputMBps(),
                    tls.medianRttMicros() / canopy.medianRttMicros(), tls.throughputMBps() / canopy.throughputMBps());
        }
        out.append(table.render());
        return out.toString();
    }

    private static P2pRow row(List<P2pRow> rows, String probe, int size) {
        return rows.stream().filter(r -> r.probe().equals(probe) && r.size() == size).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + probe + " result for " + size + " bytes"));
    }
}
