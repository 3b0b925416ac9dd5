package dev.canopy.multicast.internal.link;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * Reliable, FIFO-per-pair point-to-point messaging among the ranks of one communicator: the path the
 * substrate uses for ACKs, for delivering to co-roots and for retransmissions. Core's communicator
 * collective channel ({@code PointToPoint} with a tag reserved for multicast, received with
 * {@code ANY_SOURCE}) provides exactly this; {@link InProcessLinks} provides it inside one JVM.
 *
 * <p>{@link #send} may read {@code payload} until its future completes. It fails with core's
 * {@code RankFailedException} when the destination has failed; the substrate treats that like a
 * failure notification. The handler runs on the owner loop of this rank.
 */
public interface ReliableLink {

    int rank();

    int size();

    Future<Void> send(int destination, Buffer payload);

    /** Where messages for this rank go; set once, before traffic starts. */
    void handler(LinkHandler handler);

    /** Receives one message from {@code source}. */
    @FunctionalInterface
    interface LinkHandler {

        void received(int source, Buffer payload);
    }
}
