package dev.canopy.collectives.reference;

/**
 * Message size classes of the correctness suite: the bytes of the largest buffer one member holds
 * (the root's for rooted operations, each member's for the others).
 */
public enum SizeClass {
    EMPTY(0),
    TINY(24),
    SMALL(1_000),
    MEDIUM(65_536),
    LARGE(4 << 20);

    private final int bytes;

    SizeClass(int bytes) {
        this.bytes = bytes;
    }

    public int bytes() {
        return bytes;
    }
}
