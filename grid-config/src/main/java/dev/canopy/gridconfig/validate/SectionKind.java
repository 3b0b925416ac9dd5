package dev.canopy.gridconfig.validate;

import dev.canopy.gridconfig.model.Keyword;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/** The three kinds of sections and the attributes each accepts, spelled as the documentation spells them. */
enum SectionKind {
    GRID(List.of("type", "name", "levels", "thresholds_ms", "default_rtt_ms")),
    SUBJOB(Stream.concat(Stream.of("type", "label", "count", "hosts", "resourceManagerContact", "wan_group", "site",
            "lan_id", "cluster", "fabric", "uplink_mbps", "environment"), GramAttributes.NAMES.stream()).toList()),
    LINK(List.of("type", "between", "rtt_ms", "jitter_ms", "loss", "bandwidth_mbps", "direction"));

    private final List<String> attributes;

    SectionKind(List<String> attributes) {
        this.attributes = attributes;
    }

    String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The documented spelling of the attribute written as {@code written}, if this kind of section accepts it. */
    Optional<String> attribute(String written) {
        String canonical = Keyword.canonical(written);
        return attributes.stream().filter(a -> Keyword.canonical(a).equals(canonical)).findFirst();
    }

    /** Every attribute name this kind accepts, with {@code rsl_substitution}, for spelling hints. */
    List<String> attributeNames() {
        List<String> names = new ArrayList<>(attributes);
        names.add(SectionResolver.SUBSTITUTION);
        return names;
    }

    static Optional<SectionKind> fromConfigName(String text) {
        String canonical = Keyword.canonical(text);
        return Arrays.stream(values()).filter(k -> k.name().toLowerCase(Locale.ROOT).equals(canonical)).findFirst();
    }

    static List<String> configNames() {
        return Arrays.stream(values()).map(SectionKind::configName).toList();
    }
}
