package dev.canopy.topology.internal.tree;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Predicted arrival time of every node (ms after the root starts) and the completion time, the
 * latest arrival. Infinite when the tree uses a link that is no longer measured.
 */
public record Prediction(Map<String, Double> arrivalMs, double completionMs) {

    public Prediction {
        arrivalMs = Collections.unmodifiableMap(new LinkedHashMap<>(arrivalMs));
    }

    static Prediction of(List<String> nodes, double[] arrivals) {
        Map<String, Double> byName = new LinkedHashMap<>(nodes.size() * 2);
        double completion = 0;
        for (int i = 0; i < arrivals.length; i++) {
            byName.put(nodes.get(i), arrivals[i]);
            completion = Math.max(completion, arrivals[i]);
        }
        return new Prediction(byName, completion);
    }

    /** Latest arrival in {@code arrivals}. */
    public static double completionMs(double[] arrivals) {
        double completion = 0;
        for (double arrival : arrivals) {
            completion = Math.max(completion, arrival);
        }
        return completion;
    }
}
