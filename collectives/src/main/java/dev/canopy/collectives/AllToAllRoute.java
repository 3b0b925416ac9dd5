package dev.canopy.collectives;

/**
 * How alltoall and alltoallv move blocks between members (docs/collectives.md). Every member of a
 * communicator must use the same route.
 */
public enum AllToAllRoute {
    /** Through the site coordinators when the members span several sites, else directly between pairs. */
    AUTO,
    /**
     * Through the site coordinators, MagPIe style: one WAN message per ordered pair of sites, at the
     * price of two extra hops inside each site.
     */
    SITES,
    /** Directly between every pair of members, across the WAN too: n(n-1) messages, no relaying. */
    PAIRWISE;

    /** Whether an all-to-all among members spanning {@code siteCount} sites goes through the site coordinators. */
    public boolean throughSiteCoordinators(int siteCount) {
        return switch (this) {
            case AUTO -> siteCount > 1;
            case SITES -> true;
            case PAIRWISE -> false;
        };
    }
}
