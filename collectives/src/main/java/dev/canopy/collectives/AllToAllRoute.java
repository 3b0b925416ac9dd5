package dev.canopy.collectives;

/**
 * How alltoall and alltoallv move blocks between members (docs/collectives.md). Every member of a
 * communicator must use the same route.
 */
public enum AllToAllRoute {
    /** {@link #RELAYED} when the members span several sites, else {@link #PAIRWISE}. */
    AUTO,
    /**
     * Through the site coordinators, MagPIe style, each site's aggregate for another site travelling
     * the path of least predicted time between their coordinators: directly, or relayed by other
     * coordinators where the plan's latencies make that faster (the slow links are avoided as HLOT
     * avoids them for bcast). Each coordinator sends at most one message per coordinator per round.
     */
    RELAYED,
    /**
     * Through the site coordinators, MagPIe style, each coordinator sending straight to every other:
     * one WAN message per ordered pair of sites, at the price of two extra hops inside each site.
     */
    SITES,
    /** Directly between every pair of members, across the WAN too: n(n-1) messages, no relaying. */
    PAIRWISE;

    /** The route an all-to-all among members spanning {@code siteCount} sites takes: never {@link #AUTO}. */
    public AllToAllRoute resolvedFor(int siteCount) {
        if (this != AUTO) {
            return this;
        }
        return siteCount > 1 ? RELAYED : PAIRWISE;
    }
}
