package dev.canopy.collectives.internal.segmentation;

import java.util.Optional;

/**
 * Finds the gather escalation region [M1, M2] (segmentation.md): the sizes at which a noticeable
 * share of the samples sit on a much higher level than the size's baseline, because the senders
 * congest the root.
 *
 * <p>A sample escalated if it exceeds {@code factor} times the size's low quantile (its
 * uncongested time) by at least {@code minimumJumpMillis}. A size escalates if at least
 * {@code minimumShare} of its samples did. M1 is the smallest escalating size, M2 the largest.
 */
public final class EscalationDetector {

    private static final double BASELINE_QUANTILE = 0.1;

    private final double factor;
    private final double minimumJumpMillis;
    private final double minimumShare;

    public EscalationDetector(double factor, double minimumJumpMillis, double minimumShare) {
        if (!(factor > 1) || !(minimumJumpMillis >= 0) || !(minimumShare > 0 && minimumShare <= 1)) {
            throw new IllegalArgumentException("escalation detector needs factor > 1, jump >= 0 ms and a share"
                    + " in (0, 1]; got " + factor + ", " + minimumJumpMillis + ", " + minimumShare);
        }
        this.factor = factor;
        this.minimumJumpMillis = minimumJumpMillis;
        this.minimumShare = minimumShare;
    }

    public Optional<EscalationRange> detect(SizeTimeCurve curve) {
        long first = -1;
        long last = -1;
        for (SizeTimeCurve.Point point : curve.points()) {
            if (escalatedShare(point) >= minimumShare) {
                first = first < 0 ? point.bytes() : first;
                last = point.bytes();
            }
        }
        return first < 0 ? Optional.empty() : Optional.of(new EscalationRange(first, last));
    }

    /** The share of a size's samples that sit on an escalated level. */
    public double escalatedShare(SizeTimeCurve.Point point) {
        double baseline = point.quantile(BASELINE_QUANTILE);
        double threshold = Math.max(baseline * factor, baseline + minimumJumpMillis);
        int escalated = 0;
        for (double millis : point.sortedMillis()) {
            if (millis > threshold) {
                escalated++;
            }
        }
        return (double) escalated / point.samples();
    }
}
