package dev.canopy.gridconfig.model;

/** Whether a {@link LinkSpec} comes from a link section or from the grid's defaults. */
public enum LinkOrigin {
    CONFIGURED,
    DEFAULT
}
