package dev.canopy.core.internal.emulation;

import java.util.concurrent.atomic.AtomicLong;

/**
 * When one emulated link (or site uplink) is next free. Messages reserve it in turn: each occupies
 * it for its transmission time, queued behind earlier ones. Lock-free, so nodes on different event
 * loops can share one site's uplink.
 */
final class LinkTimeline {

    /** The interval a message occupies the link, in nanoseconds of the emulator's clock. */
    record Occupancy(long start, long end) {
    }

    private final AtomicLong freeAt = new AtomicLong(Long.MIN_VALUE);

    /**
     * Reserves the link for {@code durationNanos}, starting no earlier than {@code earliestStart}
     * and when the link is free, and ending no earlier than {@code earliestEnd} (a message cannot
     * leave faster than it arrives from an earlier stage).
     */
    Occupancy reserve(long earliestStart, long durationNanos, long earliestEnd) {
        while (true) {
            long free = freeAt.get();
            long start = free == Long.MIN_VALUE || free - earliestStart < 0 ? earliestStart : free;
            long end = Math.max(start + durationNanos, earliestEnd);
            if (freeAt.compareAndSet(free, end)) {
                return new Occupancy(start, end);
            }
        }
    }
}
