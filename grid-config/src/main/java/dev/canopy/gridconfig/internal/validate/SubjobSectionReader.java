package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.Excerpt;
import dev.canopy.gridconfig.Keyword;
import dev.canopy.gridconfig.internal.rsl.Diagnostics;
import dev.canopy.gridconfig.model.Fabric;
import dev.canopy.gridconfig.model.GlobusEnvironment;
import dev.canopy.gridconfig.model.GramAttributes;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.HostSlots;
import dev.canopy.gridconfig.model.Subjob;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Reads one subjob section and fills in its defaults: site from the resource manager contact or
 * the label, wan_group from the site, lan_id from {@code GLOBUS_LAN_ID} or the site, cluster from
 * the lan_id. A value that is wrong is reported and replaced by its default so that checks can go on.
 */
final class SubjobSectionReader {

    static final String LAN_ID_VARIABLE = GlobusEnvironment.LAN_ID;
    static final String SUBJOB_INDEX_VARIABLE = GlobusEnvironment.SUBJOB_INDEX;
    static final String CONTACT = GramAttributes.RESOURCE_MANAGER_CONTACT;

    private final Diagnostics diagnostics;
    private final ValueReader values;

    SubjobSectionReader(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
        this.values = new ValueReader(diagnostics);
    }

    /** Reads the subjob at {@code position} among the file's subjobs (0-based). */
    SubjobDraft read(AttributeTable section, int position) {
        Map<String, Resolved.Text> environment = section.get("environment").map(this::environment).orElse(Map.of());
        Optional<Integer> durocIndex = Optional.ofNullable(environment.get(SUBJOB_INDEX_VARIABLE))
                .flatMap(text -> values.wholeNumber(text, SUBJOB_INDEX_VARIABLE, 0, Integer.MAX_VALUE));
        String label = section.get("label").flatMap(values::name)
                .orElse("subjob-" + durocIndex.orElse(position));
        Optional<String> contactHost = section.get(CONTACT).flatMap(this::contactHost);
        Optional<List<HostSlots>> hosts = section.get("hosts").flatMap(this::hosts);
        int count = section.get("count").flatMap(a -> values.wholeNumber(a, 1, GridModel.MAX_PROCESSES))
                .orElseGet(() -> hosts.map(list -> list.stream().mapToInt(HostSlots::slots).sum()).orElse(1));
        String site = section.get("site").flatMap(values::name).or(() -> contactHost).orElse(label);
        String lanId = lanId(section, environment).orElse(site);
        Subjob subjob = new Subjob(
                label,
                count,
                hosts.orElseGet(() -> List.of(new HostSlots(contactHost.orElse(label), count))),
                section.get("wan_group").flatMap(values::name).orElse(site),
                site,
                lanId,
                section.get("cluster").flatMap(values::name).orElse(lanId),
                section.get("fabric").flatMap(values::single).flatMap(this::fabric).orElse(Fabric.NONE),
                positiveMbps(section, "uplink_mbps"),
                positiveMbps(section, "nic_mbps"),
                modelEnvironment(environment, lanId),
                gram(section, contactHost));
        return new SubjobDraft(subjob, section, durocIndex);
    }

    private OptionalDouble positiveMbps(AttributeTable section, String attribute) {
        return section.get(attribute).flatMap(a -> values.number(a, NumberRange.POSITIVE))
                .map(OptionalDouble::of).orElse(OptionalDouble.empty());
    }

    /** {@code lan_id}, or {@code GLOBUS_LAN_ID} from the environment, which must agree when both are given. */
    private Optional<String> lanId(AttributeTable section, Map<String, Resolved.Text> environment) {
        Optional<String> explicit = section.get("lan_id").flatMap(values::name);
        Optional<Resolved.Text> fromEnvironment = Optional.ofNullable(environment.get(LAN_ID_VARIABLE));
        if (explicit.isPresent() && fromEnvironment.isPresent() && !explicit.get().equals(fromEnvironment.get().text())) {
            diagnostics.error(fromEnvironment.get().position(), LAN_ID_VARIABLE + " " + Excerpt.quoted(fromEnvironment.get().text())
                    + " disagrees with lan_id " + Excerpt.quoted(explicit.get()) + "; they name the same LAN, keep one of them");
        }
        if (fromEnvironment.isPresent() && fromEnvironment.get().text().isBlank()) {
            diagnostics.error(fromEnvironment.get().position(), LAN_ID_VARIABLE + " must not be blank");
            return explicit;
        }
        return explicit.or(() -> fromEnvironment.map(Resolved.Text::text));
    }

    private Map<String, Resolved.Text> environment(Attribute attribute) {
        Map<String, Resolved.Text> environment = new LinkedHashMap<>();
        for (Pair pair : values.pairs(attribute)) {
            String name = pair.key().text();
            if (name.isBlank()) {
                diagnostics.error(pair.key().position(), "environment variable name must not be blank");
            } else if (environment.putIfAbsent(name, pair.value()) != null) {
                diagnostics.error(pair.key().position(), "environment variable " + Excerpt.of(name) + " is set twice");
            }
        }
        return environment;
    }

    /** The host of {@code host[:port][/service]}. */
    private Optional<String> contactHost(Attribute attribute) {
        return values.single(attribute).flatMap(text -> {
            Optional<String> host = GramAttributes.contactHost(text.text());
            if (host.isEmpty()) {
                diagnostics.error(text.position(), CONTACT + " " + Excerpt.quoted(text.text()) + " names no host; write \"host[:port][/service]\"");
            }
            return host;
        });
    }

    private Optional<List<HostSlots>> hosts(Attribute attribute) {
        Optional<List<Resolved.Text>> texts = values.plainValues(attribute);
        if (texts.isEmpty()) {
            return Optional.empty();
        }
        List<HostSlots> hosts = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Resolved.Text text : texts.get()) {
            Optional<HostSlots> host = host(text);
            if (host.isEmpty()) {
                return Optional.empty();
            }
            if (!names.add(host.get().name())) {
                diagnostics.error(text.position(), "host " + Excerpt.of(host.get().name()) + " is listed twice; give it more slots instead, e.g. "
                        + Excerpt.quoted(host.get().name() + ":2"));
                return Optional.empty();
            }
            hosts.add(host.get());
        }
        return Optional.of(hosts);
    }

    /** {@code name} (one slot) or {@code name:slots}. */
    private Optional<HostSlots> host(Resolved.Text text) {
        int colon = text.text().lastIndexOf(':');
        String name = colon < 0 ? text.text() : text.text().substring(0, colon);
        if (name.isBlank()) {
            diagnostics.error(text.position(), "host " + Excerpt.quoted(text.text()) + " has no name; write \"name\" or \"name:slots\"");
            return Optional.empty();
        }
        if (colon < 0) {
            return Optional.of(new HostSlots(name, 1));
        }
        Resolved.Text slots = new Resolved.Text(text.position(), text.text().substring(colon + 1));
        return values.wholeNumber(slots, "slots of host " + name, 1, GridModel.MAX_PROCESSES)
                .map(n -> new HostSlots(name, n));
    }

    private Optional<Fabric> fabric(Resolved.Text text) {
        return values.keyword(text, "fabric", Fabric::fromConfigName, Keyword.configNames(Fabric.class));
    }

    /** The GRAM attributes as given; a contact without a host (already reported) is left out. */
    private Map<String, List<String>> gram(AttributeTable section, Optional<String> contactHost) {
        Map<String, List<String>> gram = new LinkedHashMap<>();
        section.present(GramAttributes.KEPT).forEach((name, attribute) -> {
            if (!name.equals(CONTACT) || contactHost.isPresent()) {
                values.plainValues(attribute).ifPresent(texts -> gram.put(name, texts.stream().map(Resolved.Text::text).toList()));
            }
        });
        return gram;
    }

    /** The environment passed to processes; Globus variables that contradict the model (already reported) are left out. */
    private static Map<String, String> modelEnvironment(Map<String, Resolved.Text> environment, String lanId) {
        Map<String, String> texts = new LinkedHashMap<>();
        environment.forEach((name, value) -> {
            boolean contradicts = name.equals(LAN_ID_VARIABLE) && !value.text().equals(lanId)
                    || name.equals(SUBJOB_INDEX_VARIABLE) && !GlobusEnvironment.isSubjobIndex(value.text());
            if (!contradicts) {
                texts.put(name, value.text());
            }
        });
        return texts;
    }
}
