package dev.canopy.gridconfig.internal.rsl;

/**
 * Whether something was read whole. A {@link #DAMAGED} part lost pieces to errors that are already
 * reported, so checks for missing things skip it.
 */
public enum Integrity {
    COMPLETE,
    DAMAGED
}
