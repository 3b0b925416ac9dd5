package dev.canopy.processes;

/**
 * The latency from the parent root's site to a site, in milliseconds: measured (the probes' forecasts) when the
 * caller has them, else the level file's configured RTT. 0 for the root's own site.
 */
@FunctionalInterface
public interface SiteLatency {

    double fromRootTo(String site);
}
