package dev.canopy.cli.bench;

import dev.canopy.cli.plot.SvgPlot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The chart of {@code canopy bench p2p --plot}: median round trip against message size, one line per transport. */
final class P2pPlot {

    private P2pPlot() {
    }

    static SvgPlot of(List<P2pRow> rows) {
        Map<String, List<SvgPlot.Point>> byProbe = new LinkedHashMap<>();
        for (P2pRow row : rows) {
            byProbe.computeIfAbsent(row.probe(), probe -> new ArrayList<>()).add(new SvgPlot.Point(row.size(), row.medianRttMicros()));
        }
        SvgPlot plot = new SvgPlot("point-to-point round trip over loopback between two JVMs", "message size (bytes)", true,
                "median round trip (\u00b5s)");
        byProbe.forEach((probe, points) -> plot.add(SvgPlot.Series.measured(probe, points)));
        return plot;
    }
}
