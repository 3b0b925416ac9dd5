package dev.canopy.topology.internal.graph;

/** A latency CSV could not be read; the message names the file, the line and the fix. */
public final class LatencyCsvException extends IllegalArgumentException {

    public LatencyCsvException(String message) {
        super(message);
    }
}
