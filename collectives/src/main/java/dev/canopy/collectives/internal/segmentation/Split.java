package dev.canopy.collectives.internal.segmentation;

/** How to run one scatter: as {@code parts} scatters of a slice each, one after the other. */
public record Split(int parts) {

    /** Run the operation as it is. */
    public static final Split WHOLE = new Split(1);

    public Split {
        if (parts < 1) {
            throw new IllegalArgumentException("a split needs at least one part, got " + parts);
        }
    }
}
