package dev.canopy.collectives.internal.segmentation;

/** One measured completion time of an operation moving {@code bytes} per process. */
public record TimingSample(long bytes, double millis) {

    public TimingSample {
        if (bytes < 0 || !(millis >= 0)) {
            throw new IllegalArgumentException("sample (" + bytes + " B, " + millis + " ms) is not a size and a time");
        }
    }
}
