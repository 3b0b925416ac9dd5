package dev.canopy.collectives.internal.engine;

import dev.canopy.core.comm.Message;
import dev.canopy.core.comm.PointToPoint;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.Queue;

/** A member's real collective channel that notes every message it sends: {source, destination, step}. */
record RecordingChannel(PointToPoint channel, Queue<int[]> sent) implements PointToPoint {

    @Override
    public int rank() {
        return channel.rank();
    }

    @Override
    public int size() {
        return channel.size();
    }

    @Override
    public Future<Void> send(int destination, int tag, Buffer payload) {
        sent.add(new int[] {channel.rank(), destination, CollectiveFrame.header(payload).step()});
        return channel.send(destination, tag, payload);
    }

    @Override
    public Future<Message> receive(int source, int tag) {
        return channel.receive(source, tag);
    }
}
