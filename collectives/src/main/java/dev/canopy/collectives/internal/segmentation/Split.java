package dev.canopy.collectives.internal.segmentation;

/** How to run one scatter or gather: as {@code parts} sub-operations, with or without a barrier before each. */
public record Split(int parts, Synchronisation synchronisation) {

    public enum Synchronisation { NONE, BARRIER_BEFORE_EACH }

    /** Run the operation as it is. */
    public static final Split WHOLE = new Split(1, Synchronisation.NONE);

    public Split {
        if (parts < 1) {
            throw new IllegalArgumentException("a split needs at least one part, got " + parts);
        }
    }
}
