package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.Frame;
import io.vertx.core.net.SocketAddress;
import java.util.Objects;

/** A frame received over UDP and the socket address it came from (to answer probes). */
public record Datagram(Frame frame, SocketAddress sender) {

    public Datagram {
        Objects.requireNonNull(frame, "frame");
        Objects.requireNonNull(sender, "sender");
    }
}
