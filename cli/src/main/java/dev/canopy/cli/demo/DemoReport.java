package dev.canopy.cli.demo;

import dev.canopy.core.node.Member;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** Prints what the demo found: the rank table and the round-trip matrix. */
final class DemoReport {

    private final PrintWriter out;

    DemoReport(PrintWriter out) {
        this.out = out;
    }

    void rankTable(String job, List<Member> members) {
        out.printf(Locale.ROOT, "job %s: %d members, ranked by coordinates then node id%n%n", job, members.size());
        out.printf(Locale.ROOT, "%4s  %-10s  %-8s  %-8s  %-12s  %s%n", "rank", "node", "wan", "site", "host", "address (tcp/udp)");
        for (int rank = 0; rank < members.size(); rank++) {
            Member m = members.get(rank);
            out.printf(Locale.ROOT, "%4d  %-10s  %-8s  %-8s  %-12s  %s:%d/%d%n", rank, m.id(), m.coordinates().wanGroup(),
                    m.coordinates().site(), m.coordinates().host(), m.address().host(), m.address().tcpPort(),
                    m.address().udpPort());
        }
        out.println();
    }

    void rttMatrix(double[][] rtt, int pings) {
        out.printf(Locale.ROOT, "round trip over WORLD, median of %d pings, ms (row pings column)%n%n", pings);
        out.print("from\\to");
        for (int to = 0; to < rtt.length; to++) {
            out.printf(Locale.ROOT, "%8d", to);
        }
        out.println();
        for (int from = 0; from < rtt.length; from++) {
            out.printf(Locale.ROOT, "%7d", from);
            for (int to = 0; to < rtt.length; to++) {
                out.print(from == to ? String.format(Locale.ROOT, "%8s", "-") : String.format(Locale.ROOT, "%8.2f", rtt[from][to]));
            }
            out.println();
        }
        out.println();
        out.flush();
    }
}
