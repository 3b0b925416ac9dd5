package dev.canopy.processes;

import java.util.List;

/**
 * Where the children of a spawn go: on hosts the user names, at sites the user names, or wherever Canopy finds
 * best ({@link Placer}: fewest running processes first, then nearest to the parent root).
 */
public sealed interface Placement {

    /** On the agents of these hosts only. */
    record OnHosts(List<String> hosts) implements Placement {
        public OnHosts {
            hosts = List.copyOf(hosts);
            if (hosts.isEmpty()) {
                throw new IllegalArgumentException("name at least one host to place children on");
            }
        }
    }

    /** On the agents at these sites only. */
    record AtSites(List<String> sites) implements Placement {
        public AtSites {
            sites = List.copyOf(sites);
            if (sites.isEmpty()) {
                throw new IllegalArgumentException("name at least one site to place children at");
            }
        }
    }

    /** On any agent of the pool. */
    record Automatic() implements Placement {
    }

    static Placement automatic() {
        return new Automatic();
    }

    static Placement onHosts(String... hosts) {
        return new OnHosts(List.of(hosts));
    }

    static Placement atSites(String... sites) {
        return new AtSites(List.of(sites));
    }
}
