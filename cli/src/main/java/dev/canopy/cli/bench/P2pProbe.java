package dev.canopy.cli.bench;

import io.vertx.core.Future;

/**
 * One way of moving point-to-point messages to the echo peer, measured on the event loop: the
 * Canopy transport, or a plain Vert.x NetSocket as the baseline.
 */
interface P2pProbe {

    /** The column name in the table, e.g. {@code canopy}. */
    String name();

    /** Round-trip times, in nanoseconds, of {@code count} messages of {@code size} bytes echoed one at a time. */
    Future<long[]> roundTrips(int size, int count);

    /**
     * Streams {@code count} messages of {@code size} bytes with at most {@code window} unacknowledged.
     *
     * @return nanoseconds from the first send to the last acknowledgement
     */
    Future<Long> stream(int size, int count, int window);

    Future<Void> close();
}
