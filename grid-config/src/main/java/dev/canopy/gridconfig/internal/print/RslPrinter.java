package dev.canopy.gridconfig.internal.print;

import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.HostSlots;
import dev.canopy.gridconfig.model.Link;
import dev.canopy.gridconfig.model.MulticastRange;
import dev.canopy.gridconfig.model.Subjob;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes a model as a canonical level file: one grid section, the subjobs in order, the links;
 * every default written out, strings in double quotes, numbers as plain decimals. Reading the
 * output gives back an equal model.
 */
public final class RslPrinter {

    private static final String INDENT = "   ";

    private final StringBuilder out = new StringBuilder();

    private RslPrinter() {
    }

    public static String print(GridModel model) {
        RslPrinter printer = new RslPrinter();
        printer.write(model);
        return printer.out.toString();
    }

    private void write(GridModel model) {
        out.append("+\n");
        section("grid");
        relation("name", quote(model.name()));
        relation("default_rtt_ms", DecimalText.of(model.defaultRttMs()));
        relation("levels", List.of(Level.values()).stream()
                .map(level -> "(" + level.configName() + " " + model.levels().at(level).configName() + ")")
                .collect(Collectors.joining(" ")));
        relation("thresholds_ms", List.of(Level.HOST, Level.CLUSTER, Level.LAN, Level.LIGHT_WAN).stream()
                .map(level -> "(" + level.configName() + " " + DecimalText.of(model.thresholds().of(level).orElseThrow()) + ")")
                .collect(Collectors.joining(" ")));
        relation(MulticastRange.RANGE_ATTRIBUTE, model.multicast().cidr());
        relation(MulticastRange.PORTS_ATTRIBUTE, model.multicast().ports());
        endSection();
        model.subjobs().forEach(this::subjob);
        model.links().forEach(this::link);
    }

    private void subjob(Subjob subjob) {
        section("subjob");
        relation("label", quote(subjob.label()));
        relation("count", Integer.toString(subjob.count()));
        relation("hosts", subjob.hosts().stream().map(HostSlots::toString).map(RslPrinter::quote).collect(Collectors.joining(" ")));
        relation("wan_group", quote(subjob.wanGroup()));
        relation("site", quote(subjob.site()));
        relation("lan_id", quote(subjob.lanId()));
        relation("cluster", quote(subjob.cluster()));
        relation("fabric", subjob.fabric().configName());
        subjob.uplinkMbps().ifPresent(mbps -> relation("uplink_mbps", DecimalText.of(mbps)));
        subjob.nicMbps().ifPresent(mbps -> relation("nic_mbps", DecimalText.of(mbps)));
        if (!subjob.environment().isEmpty()) {
            relation("environment", subjob.environment().entrySet().stream()
                    .map(e -> "(" + quote(e.getKey()) + " " + quote(e.getValue()) + ")")
                    .collect(Collectors.joining(" ")));
        }
        for (Map.Entry<String, List<String>> gram : subjob.gram().entrySet()) {
            relation(gram.getKey(), gram.getValue().stream().map(RslPrinter::quote).collect(Collectors.joining(" ")));
        }
        endSection();
    }

    private void link(Link link) {
        section("link");
        relation("between", quote(link.a()) + " " + quote(link.b()));
        relation("rtt_ms", DecimalText.of(link.rttMs()));
        relation("jitter_ms", DecimalText.of(link.jitterMs()));
        relation("loss", DecimalText.of(link.loss()));
        link.bandwidthMbps().ifPresent(mbps -> relation("bandwidth_mbps", DecimalText.of(mbps)));
        relation("direction", link.direction().configName());
        endSection();
    }

    private void section(String type) {
        out.append("( &(type = ").append(type).append(")\n");
    }

    private void relation(String attribute, String values) {
        out.append(INDENT).append('(').append(attribute).append(" = ").append(values).append(")\n");
    }

    private void endSection() {
        out.append(")\n");
    }

    /** A double-quoted literal; a quote inside is doubled, which is RSL's only escape. */
    static String quote(String text) {
        return "\"" + text.replace("\"", "\"\"") + "\"";
    }
}
