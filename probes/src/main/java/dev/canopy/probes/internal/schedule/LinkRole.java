package dev.canopy.probes.internal.schedule;

/** Why a link is probed. */
public enum LinkRole {
    /** Between two nodes of one site (full mesh, or ring neighbours in a large site). */
    LOCAL_MESH,
    /** Between the representatives of two sites: the links whose forecasts stand for the site pair. */
    REPRESENTATIVES,
    /** A sampled link between ordinary nodes of two sites, checking that the representatives are typical. */
    CROSS_CHECK
}
