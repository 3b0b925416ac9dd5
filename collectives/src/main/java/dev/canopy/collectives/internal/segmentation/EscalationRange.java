package dev.canopy.collectives.internal.segmentation;

import java.util.OptionalInt;

/**
 * The gather sizes M1..M2 (bytes per process, inclusive) at which escalations were observed, and how many processes
 * sent to the root at once when they were (the calibration's size minus one; unknown in documents stored before it
 * was recorded). M1 from that many senders is the smallest burst the root's port was seen to overflow with.
 */
public record EscalationRange(long firstBytes, long lastBytes, OptionalInt senders) {

    public EscalationRange {
        if (firstBytes <= 0 || lastBytes < firstBytes) {
            throw new IllegalArgumentException("escalation range [" + firstBytes + ", " + lastBytes
                    + "] must be positive and ordered");
        }
        if (senders.isPresent() && senders.getAsInt() < 1) {
            throw new IllegalArgumentException("an escalation range is observed with at least one sender, not "
                    + senders.getAsInt());
        }
    }

    /** A range whose number of senders is not known. */
    public EscalationRange(long firstBytes, long lastBytes) {
        this(firstBytes, lastBytes, OptionalInt.empty());
    }

    /** This range, observed with {@code count} processes sending to the root at once. */
    public EscalationRange observedWith(int count) {
        return new EscalationRange(firstBytes, lastBytes, OptionalInt.of(count));
    }

    public boolean contains(long bytes) {
        return bytes >= firstBytes && bytes <= lastBytes;
    }
}
