package dev.canopy.core.comm;

import io.vertx.core.buffer.Buffer;
import java.util.Objects;

/** A received point-to-point message: the sender's rank in the receiving communicator, its tag and payload. */
public record Message(int source, int tag, Buffer payload) {

    public Message {
        Objects.requireNonNull(payload, "payload");
    }
}
