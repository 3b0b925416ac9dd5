package dev.canopy.core.internal.emulation;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The emulated WAN between sites: a profile per directed site pair, a default for pairs not
 * listed, and per-site uplink capacities shared by all of a site's traffic to other sites.
 * Immutable; build it with {@link #withDefaultRtt(double)} and the {@code with...} methods.
 *
 * @param links                  profiles per directed link (from site, to site)
 * @param defaultLink            the profile of any pair of different sites not in {@code links}
 * @param uplinkMbps             site name to uplink capacity in 10^6 bits per second; absent means unlimited
 * @param queueLimitBytesPerNode bytes one node may have waiting for emulated links before its reliable frames
 *                               wait for room ({@code Transport.drained}) and its datagrams are refused
 */
public record WanEmulation(
        Map<DirectedLink, LinkProfile> links,
        LinkProfile defaultLink,
        Map<String, Double> uplinkMbps,
        long queueLimitBytesPerNode) {

    /** One direction between two sites. */
    public record DirectedLink(String fromSite, String toSite) {

        public DirectedLink {
            Objects.requireNonNull(fromSite, "fromSite");
            Objects.requireNonNull(toSite, "toSite");
        }
    }

    public static final long DEFAULT_QUEUE_LIMIT_BYTES = 64L * 1024 * 1024;

    public WanEmulation {
        links = Map.copyOf(links);
        Objects.requireNonNull(defaultLink, "defaultLink");
        uplinkMbps = Map.copyOf(uplinkMbps);
        uplinkMbps.forEach((site, mbps) -> {
            if (!(mbps > 0)) {
                throw new IllegalArgumentException("uplink_mbps " + mbps + " of site " + site + " must be > 0");
            }
        });
        if (queueLimitBytesPerNode < 1) {
            throw new IllegalArgumentException("queueLimitBytesPerNode " + queueLimitBytesPerNode + " must be positive");
        }
    }

    /** No links listed, every pair of different sites at {@code rttMs}, unlimited bandwidth. */
    public static WanEmulation withDefaultRtt(double rttMs) {
        return new WanEmulation(Map.of(), LinkProfile.rtt(rttMs), Map.of(), DEFAULT_QUEUE_LIMIT_BYTES);
    }

    /** Adds (or replaces) the link between two sites, the same in both directions. */
    public WanEmulation withLink(String siteA, String siteB, LinkProfile profile) {
        return withOneWayLink(siteA, siteB, profile).withOneWayLink(siteB, siteA, profile);
    }

    /** Adds (or replaces) the link from one site to another only. */
    public WanEmulation withOneWayLink(String fromSite, String toSite, LinkProfile profile) {
        if (fromSite.equals(toSite)) {
            throw new IllegalArgumentException("a link joins two different sites, got " + fromSite + " twice");
        }
        Map<DirectedLink, LinkProfile> more = new HashMap<>(links);
        more.put(new DirectedLink(fromSite, toSite), Objects.requireNonNull(profile, "profile"));
        return new WanEmulation(more, defaultLink, uplinkMbps, queueLimitBytesPerNode);
    }

    /** Sets the capacity of a site's uplink, shared by all its traffic to other sites. */
    public WanEmulation withUplinkMbps(String site, double mbps) {
        Map<String, Double> more = new HashMap<>(uplinkMbps);
        more.put(site, mbps);
        return new WanEmulation(links, defaultLink, more, queueLimitBytesPerNode);
    }

    public WanEmulation withQueueLimitBytesPerNode(long bytes) {
        return new WanEmulation(links, defaultLink, uplinkMbps, bytes);
    }

    /**
     * The round trip a ping between two different sites sees: half of each direction's RTT, so the
     * two directions of a one-way link section can differ.
     */
    public double roundTripMs(String siteA, String siteB) {
        return (link(siteA, siteB).rttMs() + link(siteB, siteA).rttMs()) / 2;
    }

    /** The profile of traffic from {@code fromSite} to a different {@code toSite}. */
    public LinkProfile link(String fromSite, String toSite) {
        return links.getOrDefault(new DirectedLink(fromSite, toSite), defaultLink);
    }

    /** The uplink capacity of {@code site} in Mbps, {@link LinkProfile#UNLIMITED} when none is set. */
    public double uplinkMbps(String site) {
        return uplinkMbps.getOrDefault(site, LinkProfile.UNLIMITED);
    }
}
