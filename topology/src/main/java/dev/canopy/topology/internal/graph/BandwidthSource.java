package dev.canopy.topology.internal.graph;

/**
 * Bandwidth between named nodes, as the WAN emulation and a real grid impose it: every node belongs
 * to a host and a site; a message to another host first crosses its sender's host NIC, shared by
 * everything the host sends at once; a message to another site then crosses the sender's site uplink,
 * shared by everything the site sends at once, then the directed site-to-site link. Traffic inside a
 * host is limited by none of them, traffic inside a site only by the NIC. Values are in 10^6 bits per
 * second; positive infinity means unlimited.
 */
public interface BandwidthSource {

    /** No limits anywhere: every node its own site, every uplink and link unlimited. */
    BandwidthSource UNLIMITED = new BandwidthSource() {
        @Override
        public String siteOf(String node) {
            return node;
        }

        @Override
        public double uplinkMbps(String site) {
            return Double.POSITIVE_INFINITY;
        }

        @Override
        public double linkMbps(String fromSite, String toSite) {
            return Double.POSITIVE_INFINITY;
        }

        @Override
        public String toString() {
            return "unlimited";
        }
    };

    /** The site whose uplink carries {@code node}'s messages to other sites. */
    String siteOf(String node);

    /** Capacity of the site's uplink, shared by all its nodes' messages to other sites. */
    double uplinkMbps(String site);

    /** Capacity of the directed link between two different sites. */
    double linkMbps(String fromSite, String toSite);

    /** The host whose NIC carries {@code node}'s messages to other hosts; by default every node its own host. */
    default String hostOf(String node) {
        return node;
    }

    /** Capacity of the host's NIC, shared by all its nodes' messages to other hosts; unlimited by default. */
    default double nicMbps(String host) {
        return Double.POSITIVE_INFINITY;
    }
}
