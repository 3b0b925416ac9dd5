package dev.canopy.gridconfig.rsl;

/**
 * Whether a section parsed without syntax errors. Checks that report something missing skip
 * {@link #DAMAGED} sections: the attribute may be there, in a relation the parser had to drop.
 */
public enum Integrity {
    COMPLETE,
    DAMAGED
}
