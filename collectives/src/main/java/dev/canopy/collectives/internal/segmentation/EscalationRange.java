package dev.canopy.collectives.internal.segmentation;

/** The gather sizes M1..M2 (bytes per process, inclusive) at which escalations were observed. */
public record EscalationRange(long firstBytes, long lastBytes) {

    public EscalationRange {
        if (firstBytes <= 0 || lastBytes < firstBytes) {
            throw new IllegalArgumentException("escalation range [" + firstBytes + ", " + lastBytes
                    + "] must be positive and ordered");
        }
    }

    public boolean contains(long bytes) {
        return bytes >= firstBytes && bytes <= lastBytes;
    }
}
