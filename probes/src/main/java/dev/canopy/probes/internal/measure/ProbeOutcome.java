package dev.canopy.probes.internal.measure;

/** What one probe found: a measurement, or nothing in time (a loss). Both are expected outcomes. */
public sealed interface ProbeOutcome {

    /** A measured value in the unit of the probe's metric. */
    record Measured(double value) implements ProbeOutcome {
    }

    /** No usable answer: the probe timed out, the peer was unreachable, or the answer was unusable. */
    record Lost(String reason) implements ProbeOutcome {
    }
}
