package dev.canopy.collectives;

/** Who picks a collective's size class on a plan with trees per message size ({@link TreeChoice}). */
enum SizeChoice {
    /** The root, which alone knows the size; its frames carry the choice. */
    ROOT,
    /** Every member from its own size, which the contract makes equal; a {@code SizeClassCheck} verifies it. */
    EVERY_MEMBER,
    /** Nobody: class 0, the latency trees (sizes that differ by member or that nobody knows up front). */
    NONE
}
