package dev.canopy.core.comm;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.function.Supplier;

/** A channel that fails every operation once its communicator is revoked, and otherwise forwards. */
final class RevocableChannel implements PointToPoint {

    private final PointToPoint channel;
    private final CommunicatorRuntime runtime;
    /** The revocation, or null; read on the runtime's context. */
    private final Supplier<CommunicatorRevokedException> revocation;

    RevocableChannel(PointToPoint channel, CommunicatorRuntime runtime, Supplier<CommunicatorRevokedException> revocation) {
        this.channel = channel;
        this.runtime = runtime;
        this.revocation = revocation;
    }

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
        return runtime.onContext(() -> {
            CommunicatorRevokedException revoked = revocation.get();
            return revoked != null ? Future.failedFuture(revoked) : channel.send(destination, tag, payload);
        });
    }

    @Override
    public Future<Message> receive(int source, int tag) {
        return runtime.onContext(() -> {
            CommunicatorRevokedException revoked = revocation.get();
            return revoked != null ? Future.failedFuture(revoked) : channel.receive(source, tag);
        });
    }
}
