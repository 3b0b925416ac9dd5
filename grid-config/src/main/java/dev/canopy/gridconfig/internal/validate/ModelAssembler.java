package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.Excerpt;
import dev.canopy.gridconfig.internal.rsl.Diagnostics;
import dev.canopy.gridconfig.internal.rsl.Integrity;
import dev.canopy.gridconfig.internal.rsl.Position;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.HostSlots;
import dev.canopy.gridconfig.model.Link;
import dev.canopy.gridconfig.model.LinkDirection;
import dev.canopy.gridconfig.model.Subjob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Function;

/**
 * The checks that span sections, then the model: unique labels and subjob indices, one wan_group
 * and one uplink per site, links between known sites and at most one link per direction.
 */
final class ModelAssembler {

    private final Diagnostics diagnostics;

    ModelAssembler(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
    }

    /**
     * The model, or empty when anything was reported. {@code sectionKinds} is {@link Integrity#DAMAGED}
     * when the kind of some section is unknown because of an error: it may have been a subjob, so
     * checks that need every subjob are skipped.
     */
    Optional<GridModel> assemble(String name, GridSettings grid, List<SubjobDraft> subjobs, List<LinkDraft> links,
            Integrity sectionKinds) {
        if (subjobs.isEmpty() && sectionKinds == Integrity.COMPLETE) {
            diagnostics.error(Position.START, "the file has no subjob section; add one, e.g. ( &(type = subjob) (label = \"a\") (count = 4) )");
        }
        requireUnique(subjobs, "label", draft -> Optional.of(draft.subjob().label()), "subjob label");
        requireUnique(subjobs, "environment", draft -> draft.durocIndex().map(String::valueOf), "GLOBUS_DUROC_SUBJOB_INDEX");
        requireProcessLimit(subjobs);
        Map<String, OptionalDouble> uplinks = checkSites(subjobs);
        checkNics(subjobs);
        if (sectionKinds == Integrity.COMPLETE && subjobs.stream().noneMatch(SubjobDraft::siteUncertain)) {
            checkLinkSites(links, uplinks.keySet().stream().toList());
        }
        checkLinkDirections(links);
        if (!diagnostics.isEmpty()) {
            return Optional.empty();
        }
        List<Subjob> filled = subjobs.stream().map(d -> d.subjob().withUplinkMbps(uplinks.get(d.subjob().site()))).toList();
        return Optional.of(new GridModel(name, grid.defaultRttMs(), grid.levels(), grid.thresholds(), filled,
                links.stream().map(LinkDraft::link).toList(), grid.multicast()));
    }

    private void requireUnique(List<SubjobDraft> subjobs, String attribute,
            Function<SubjobDraft, Optional<String>> key, String what) {
        Map<String, Position> first = new HashMap<>();
        for (SubjobDraft draft : subjobs) {
            key.apply(draft).ifPresent(value -> {
                Position at = draft.section().positionOf(attribute);
                Position earlier = first.putIfAbsent(value, at);
                if (earlier != null) {
                    diagnostics.error(at, what + " " + Excerpt.quoted(value) + " is used twice; the first is at " + earlier);
                }
            });
        }
    }

    private void requireProcessLimit(List<SubjobDraft> subjobs) {
        long total = 0;
        for (SubjobDraft draft : subjobs) {
            total += draft.subjob().count();
            if (total > GridModel.MAX_PROCESSES) {
                diagnostics.error(draft.section().positionOf("count"), "the job has more than " + GridModel.MAX_PROCESSES
                        + " processes with this subjob");
                return;
            }
        }
    }

    /** Reports sites whose subjobs disagree; returns each site's uplink (empty: unlimited), in order of first use. */
    private Map<String, OptionalDouble> checkSites(List<SubjobDraft> subjobs) {
        Map<String, SubjobDraft> firstOfSite = new LinkedHashMap<>();
        Map<String, SubjobDraft> uplinkOfSite = new HashMap<>();
        for (SubjobDraft draft : subjobs) {
            Subjob subjob = draft.subjob();
            SubjobDraft first = firstOfSite.putIfAbsent(subjob.site(), draft);
            boolean wanGroupsCertain = first != null && !first.section().mayLack("wan_group") && !draft.section().mayLack("wan_group");
            if (wanGroupsCertain && !first.subjob().wanGroup().equals(subjob.wanGroup())) {
                diagnostics.error(draft.section().positionOf("wan_group"), "site " + Excerpt.quoted(subjob.site()) + " is in wan_group "
                        + Excerpt.quoted(first.subjob().wanGroup()) + " (subjob " + Excerpt.quoted(first.subjob().label()) + ") but subjob "
                        + Excerpt.quoted(subjob.label()) + " puts it in " + Excerpt.quoted(subjob.wanGroup()) + "; a site belongs to one wan_group");
            }
            if (draft.section().get("uplink_mbps").isPresent() && subjob.uplinkMbps().isPresent()) {
                SubjobDraft earlier = uplinkOfSite.putIfAbsent(subjob.site(), draft);
                if (earlier != null && !earlier.subjob().uplinkMbps().equals(subjob.uplinkMbps())) {
                    diagnostics.error(draft.section().positionOf("uplink_mbps"), "site " + Excerpt.quoted(subjob.site())
                            + " has one uplink shared by its subjobs, but this uplink_mbps differs from subjob "
                            + Excerpt.quoted(earlier.subjob().label()) + "'s");
                }
            }
        }
        Map<String, OptionalDouble> uplinks = new LinkedHashMap<>();
        firstOfSite.keySet().forEach(site -> uplinks.put(site,
                uplinkOfSite.containsKey(site) ? uplinkOfSite.get(site).subjob().uplinkMbps() : OptionalDouble.empty()));
        return uplinks;
    }

    /** Reports a host that two subjobs place processes on with different {@code nic_mbps}: a host has one NIC. */
    private void checkNics(List<SubjobDraft> subjobs) {
        Map<String, SubjobDraft> nicOfHost = new HashMap<>();
        for (SubjobDraft draft : subjobs) {
            Subjob subjob = draft.subjob();
            if (subjob.nicMbps().isEmpty()) {
                continue;
            }
            for (HostSlots host : subjob.hosts()) {
                String key = subjob.site() + "/" + subjob.lanId() + "/" + subjob.cluster() + "/" + host.name();
                SubjobDraft earlier = nicOfHost.putIfAbsent(key, draft);
                if (earlier != null && !earlier.subjob().nicMbps().equals(subjob.nicMbps())) {
                    diagnostics.error(draft.section().positionOf("nic_mbps"), "host " + Excerpt.quoted(host.name())
                            + " has one NIC shared by its subjobs, but this nic_mbps differs from subjob "
                            + Excerpt.quoted(earlier.subjob().label()) + "'s; give both the same value");
                }
            }
        }
    }

    private void checkLinkSites(List<LinkDraft> links, List<String> sites) {
        Set<String> known = new HashSet<>(sites);
        for (LinkDraft link : links) {
            for (Resolved.Text site : List.of(link.first(), link.second())) {
                if (!known.contains(site.text())) {
                    diagnostics.error(site.position(), "link names unknown site " + Excerpt.quoted(site.text()) + "; sites are "
                            + Excerpt.list(sites), SpellingHint.closest(site.text(), sites));
                }
            }
        }
    }

    private void checkLinkDirections(List<LinkDraft> links) {
        Map<List<String>, Position> described = new HashMap<>();
        for (LinkDraft draft : links) {
            Link link = draft.link();
            List<List<String>> directions = new ArrayList<>();
            directions.add(List.of(link.a(), link.b()));
            if (link.direction() == LinkDirection.BOTH_WAYS) {
                directions.add(List.of(link.b(), link.a()));
            }
            for (List<String> direction : directions) {
                Position earlier = described.putIfAbsent(direction, draft.first().position());
                if (earlier != null) {
                    diagnostics.error(draft.first().position(), "traffic from " + Excerpt.quoted(direction.get(0)) + " to " + Excerpt.quoted(direction.get(1))
                            + " is already described by the link at " + earlier);
                    break;
                }
            }
        }
    }
}
