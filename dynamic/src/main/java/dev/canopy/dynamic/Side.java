package dev.canopy.dynamic;

/** Which end of a connect a group was: the accepting group ranks first in a merge when both flags are equal. */
enum Side {
    ACCEPT("a"),
    CONNECT("c");

    private final String prefix;

    Side(String prefix) {
        this.prefix = prefix;
    }

    Side other() {
        return this == ACCEPT ? CONNECT : ACCEPT;
    }

    /** The id of this side's member at {@code localRank} in the table of both groups. */
    String memberId(int localRank) {
        return prefix + "-" + localRank;
    }
}
