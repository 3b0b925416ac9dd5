package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.Keyword;
import dev.canopy.gridconfig.model.GramAttributes;
import dev.canopy.gridconfig.model.MulticastRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The three kinds of sections and the attributes each accepts, spelled as the documentation spells them. */
enum SectionKind {
    GRID(List.of("type", "name", "levels", "thresholds_ms", "default_rtt_ms", MulticastRange.RANGE_ATTRIBUTE,
            MulticastRange.PORTS_ATTRIBUTE)),
    SUBJOB(Stream.concat(Stream.of("type", "label", "count", "hosts", "wan_group", "site", "lan_id", "cluster", "fabric",
            "uplink_mbps", "nic_mbps", "environment"), GramAttributes.KEPT.stream()).toList()),
    LINK(List.of("type", "between", "rtt_ms", "jitter_ms", "loss", "bandwidth_mbps", "direction"));

    private final List<String> attributes;
    /** Canonical spelling to documented spelling, e.g. {@code lanid} to {@code lan_id}. */
    private final Map<String, String> byCanonical;

    SectionKind(List<String> attributes) {
        this.attributes = attributes;
        this.byCanonical = attributes.stream().collect(Collectors.toUnmodifiableMap(Keyword::canonical, a -> a));
    }

    String configName() {
        return Keyword.configName(this);
    }

    /** The documented spelling of the attribute written as {@code written}, if this kind of section accepts it. */
    Optional<String> attribute(String written) {
        return Optional.ofNullable(byCanonical.get(Keyword.canonical(written)));
    }

    /** Every attribute name this kind accepts, with {@code rsl_substitution}, for spelling hints. */
    List<String> attributeNames() {
        List<String> names = new ArrayList<>(attributes);
        names.add(SectionResolver.SUBSTITUTION);
        return names;
    }

    static Optional<SectionKind> fromConfigName(String text) {
        return Keyword.parse(SectionKind.class, text);
    }

    static List<String> configNames() {
        return Keyword.configNames(SectionKind.class);
    }
}
