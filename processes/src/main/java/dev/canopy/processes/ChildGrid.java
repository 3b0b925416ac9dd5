package dev.canopy.processes;

import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.Link;
import dev.canopy.gridconfig.model.Subjob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The grid a spawned job runs on: the parent's grid cut down to the sites its children were placed at, with
 * as many processes at each as were placed there (in the order given, which numbers the children), the same
 * site attributes (WAN group, LAN, cluster, fabric, uplink) and the links between those sites. So the children
 * emulate the same WAN among themselves as the parents do.
 */
public final class ChildGrid {

    private ChildGrid() {
    }

    /**
     * @param childrenPerSite site name to number of children, in child order
     * @throws IllegalArgumentException when a site is not in {@code parent}
     */
    public static GridModel of(GridModel parent, String name, Map<String, Integer> childrenPerSite) {
        List<Subjob> subjobs = new ArrayList<>();
        childrenPerSite.forEach((site, count) -> {
            Subjob template = parent.subjobs().stream().filter(subjob -> subjob.site().equals(site)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("site " + site + " is not in grid " + parent.name()
                            + " (sites: " + parent.sites().stream().map(s -> s.name()).toList() + "); give the agent"
                            + " --site with a site of the job's level file"));
            subjobs.add(new Subjob(template.label(), count, template.hosts(), template.wanGroup(), site, template.lanId(),
                    template.cluster(), template.fabric(), template.uplinkMbps(), template.environment(), template.gram()));
        });
        Set<String> sites = childrenPerSite.keySet();
        List<Link> links = parent.links().stream().filter(link -> sites.contains(link.a()) && sites.contains(link.b()))
                .toList();
        return new GridModel(name, parent.defaultRttMs(), parent.levels(), parent.thresholds(), subjobs, links,
                parent.multicast());
    }
}
