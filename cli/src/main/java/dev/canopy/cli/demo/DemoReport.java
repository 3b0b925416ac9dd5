package dev.canopy.cli.demo;

import dev.canopy.cli.table.Column;
import dev.canopy.cli.table.TextTable;
import dev.canopy.core.internal.emulation.WanEmulation;
import dev.canopy.core.node.Member;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Prints what the demo found: the rank table and the measured round trips between sites. */
final class DemoReport {

    private final PrintWriter out;

    DemoReport(PrintWriter out) {
        this.out = out;
    }

    void rankTable(String job, List<Member> members) {
        out.printf(Locale.ROOT, "job %s: %d members, ranked by coordinates then node id%n%n", job, members.size());
        TextTable table = TextTable.of(Column.integer("rank", null), Column.text("node"), Column.text("wan"),
                Column.text("site"), Column.text("host"), Column.text("address (tcp/udp)"));
        for (int rank = 0; rank < members.size(); rank++) {
            Member m = members.get(rank);
            table.row(rank, m.id(), m.coordinates().wanGroup(), m.coordinates().site(), m.coordinates().host(),
                    m.address().host() + ":" + m.address().tcpPort() + "/" + m.address().udpPort());
        }
        out.print(table.render());
        out.println();
    }

    /**
     * One line per ordered site pair: the round trip the level file implies (the mean of the two directions'
     * RTTs, which differ for one-way links) and the median of the round trips measured between every node
     * of one site and every node of the other ({@code rtt[from][to]} by rank).
     */
    void sitePairs(List<Member> members, double[][] rtt, WanEmulation wan, int pings) {
        out.printf(Locale.ROOT, "round trips between sites over WORLD (median over node pairs, %d pings each)%n%n", pings);
        TextTable table = TextTable.of(Column.text("from"), Column.text("to"), Column.decimal("expected", "ms", 1),
                Column.decimal("measured", "ms", 1), Column.integer("node pairs", null));
        for (String from : sitesInRankOrder(members)) {
            for (String to : sitesInRankOrder(members)) {
                double[] samples = samplesBetween(members, rtt, from, to);
                if (samples.length > 0) {
                    table.row(from, to, from.equals(to) ? "loopback" : wan.roundTripMs(from, to), median(samples),
                            samples.length);
                }
            }
        }
        out.print(table.render());
        out.println();
        out.flush();
    }

    private static Set<String> sitesInRankOrder(List<Member> members) {
        Set<String> sites = new LinkedHashSet<>();
        members.forEach(m -> sites.add(m.coordinates().site()));
        return sites;
    }

    private static double[] samplesBetween(List<Member> members, double[][] rtt, String fromSite, String toSite) {
        List<Double> samples = new ArrayList<>();
        for (int from = 0; from < members.size(); from++) {
            for (int to = 0; to < members.size(); to++) {
                if (from != to && members.get(from).coordinates().site().equals(fromSite)
                        && members.get(to).coordinates().site().equals(toSite)) {
                    samples.add(rtt[from][to]);
                }
            }
        }
        return samples.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double median(double[] samples) {
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
