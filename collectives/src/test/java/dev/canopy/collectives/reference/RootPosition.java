package dev.canopy.collectives.reference;

/** Where the root sits among the ranks: the correctness suite covers all three. */
public enum RootPosition {
    FIRST, MIDDLE, LAST;

    public int rank(int size) {
        return switch (this) {
            case FIRST -> 0;
            case MIDDLE -> size / 2;
            case LAST -> size - 1;
        };
    }
}
