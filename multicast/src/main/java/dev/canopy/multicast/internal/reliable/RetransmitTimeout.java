package dev.canopy.multicast.internal.reliable;

/**
 * A root's or co-root's retransmission timeout, from the ACK round trips it observes (send of a packet to the
 * first ACK that covers it), estimated as TCP estimates its RTO (Jacobson/Karels: smoothed round trip plus four
 * times its mean deviation). It never goes below the configured {@code retransmitTimeout} (so an idle, fast
 * network behaves as configured) nor above {@value #CEILING_FACTOR} times it. Why: on a loaded machine ACKs
 * come late, and a fixed timeout then retransmits packets the leaves already have, which loads the machine
 * further. Owner loop only.
 */
final class RetransmitTimeout {

    static final int CEILING_FACTOR = 64;

    private final long floorNanos;
    private final long ceilingNanos;
    private double smoothed = -1;
    private double deviation;

    RetransmitTimeout(long floorNanos) {
        this(floorNanos, floorNanos * CEILING_FACTOR);
    }

    RetransmitTimeout(long floorNanos, long ceilingNanos) {
        if (floorNanos < 1 || ceilingNanos < floorNanos) {
            throw new IllegalArgumentException("retransmit timeout floor " + floorNanos + " ns and ceiling "
                    + ceilingNanos + " ns: need 1 <= floor <= ceiling");
        }
        this.floorNanos = floorNanos;
        this.ceilingNanos = ceilingNanos;
    }

    /** One observed round trip, of a packet that was not retransmitted (Karn's rule: the caller checks). */
    void sample(long roundTripNanos) {
        double sample = Math.max(0, roundTripNanos);
        if (smoothed < 0) {
            smoothed = sample;
            deviation = sample / 2;
        } else {
            deviation += (Math.abs(sample - smoothed) - deviation) / 4;
            smoothed += (sample - smoothed) / 8;
        }
    }

    long nanos() {
        if (smoothed < 0) {
            return floorNanos;
        }
        return Math.max(floorNanos, Math.min(ceilingNanos, (long) (smoothed + 4 * deviation)));
    }
}
