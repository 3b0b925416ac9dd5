package dev.canopy.collectives.internal.multicast;

/** What carries a bcast's bytes inside the leaf groups. */
public enum Carrier {
    /** The reliable multicast substrate, the message fragmented through its window. */
    MULTICAST,
    /** The plan's pipelined point-to-point tree. */
    TREE
}
