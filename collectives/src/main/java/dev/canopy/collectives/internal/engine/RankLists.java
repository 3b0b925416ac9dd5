package dev.canopy.collectives.internal.engine;

import java.util.Arrays;

/** Rank lists in error messages: short, however long the list (an error must not echo a whole message). */
final class RankLists {

    private static final int SHOWN = 16;

    private RankLists() {
    }

    /** {@code [0, 1, 2]}, or the first {@value #SHOWN} ranks and how many more. */
    static String brief(int[] ranks) {
        if (ranks.length <= SHOWN) {
            return Arrays.toString(ranks);
        }
        String first = Arrays.toString(Arrays.copyOf(ranks, SHOWN));
        return first.substring(0, first.length() - 1) + ", ... (" + ranks.length + " ranks)]";
    }
}
