package dev.canopy.core.comm;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * Tagged, FIFO-per-(source, tag) messaging between the ranks of one context.
 * {@link Communicator#ANY_SOURCE} and {@link Communicator#ANY_TAG} are accepted by {@link #receive}.
 */
public interface PointToPoint {

    int rank();

    int size();

    Future<Void> send(int destination, int tag, Buffer payload);

    Future<Message> receive(int source, int tag);
}
