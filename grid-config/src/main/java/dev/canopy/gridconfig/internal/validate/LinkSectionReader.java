package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.Excerpt;
import dev.canopy.gridconfig.Keyword;
import dev.canopy.gridconfig.internal.rsl.Diagnostics;
import dev.canopy.gridconfig.model.Link;
import dev.canopy.gridconfig.model.LinkDirection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/** Reads {@code (type = link)}: two sites, RTT (default: the grid's default_rtt_ms), jitter, loss, bandwidth, direction. */
final class LinkSectionReader {

    private final Diagnostics diagnostics;
    private final ValueReader values;

    LinkSectionReader(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
        this.values = new ValueReader(diagnostics);
    }

    /** The link, or empty when its sites cannot be read (already reported). */
    Optional<LinkDraft> read(AttributeTable section, double defaultRttMs) {
        Optional<Attribute> between = section.get("between");
        if (between.isEmpty()) {
            if (!section.mayLack("between")) {
                diagnostics.error(section.position(), "link section needs the two sites it joins, e.g. (between = \"yonsei\" \"kisti\")");
            }
            return Optional.empty();
        }
        Optional<List<Resolved.Text>> sites = values.plainValues(between.get());
        if (sites.isEmpty()) {
            return Optional.empty();
        }
        if (sites.get().size() != 2) {
            diagnostics.error(between.get().namePosition(), "between takes exactly two site names, found " + sites.get().size());
            return Optional.empty();
        }
        Resolved.Text first = sites.get().get(0);
        Resolved.Text second = sites.get().get(1);
        if (first.text().equals(second.text())) {
            diagnostics.error(second.position(), "a link joins two different sites, but both are " + Excerpt.quoted(first.text()));
            return Optional.empty();
        }
        Link link = new Link(first.text(), second.text(),
                number(section, "rtt_ms", NumberRange.NON_NEGATIVE).orElse(defaultRttMs),
                number(section, "jitter_ms", NumberRange.NON_NEGATIVE).orElse(0.0),
                number(section, "loss", NumberRange.FRACTION).orElse(0.0),
                number(section, "bandwidth_mbps", NumberRange.POSITIVE).map(OptionalDouble::of).orElse(OptionalDouble.empty()),
                section.get("direction").flatMap(values::single).flatMap(this::direction).orElse(LinkDirection.BOTH_WAYS));
        return Optional.of(new LinkDraft(link, first, second));
    }

    private Optional<Double> number(AttributeTable section, String attribute, NumberRange range) {
        return section.get(attribute).flatMap(a -> values.number(a, range));
    }

    private Optional<LinkDirection> direction(Resolved.Text text) {
        return values.keyword(text, "direction", LinkDirection::fromConfigName, Keyword.configNames(LinkDirection.class));
    }
}
