package dev.canopy.probes.internal.forecast;

import java.util.ArrayList;
import java.util.List;

/** Validation and enumeration of forecaster window sizes. */
final class WindowSizes {

    private WindowSizes() {
    }

    static int require(int window, String forecaster) {
        if (window < 1) {
            throw new IllegalArgumentException(forecaster + ": window " + window + " must be at least 1 sample");
        }
        return window;
    }

    /** smallest, 2 x smallest, 4 x smallest, ... and finally largest. */
    static int[] doubling(int smallest, int largest) {
        List<Integer> sizes = new ArrayList<>();
        for (int w = smallest; w < largest; w *= 2) {
            sizes.add(w);
        }
        sizes.add(largest);
        return sizes.stream().mapToInt(Integer::intValue).toArray();
    }
}
