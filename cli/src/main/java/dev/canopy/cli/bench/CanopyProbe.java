package dev.canopy.cli.bench;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.node.Member;
import dev.canopy.core.transport.Transport;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;

/**
 * Point-to-point messages as Canopy frames over {@link Transport}, answered by the peer's transport; run
 * twice, over plain TCP ({@code canopy}) and over TLS ({@code canopy-tls}).
 */
final class CanopyProbe implements P2pProbe {

    private static final long JOB = Frame.jobId(EchoProtocol.JOB);

    static final String PLAIN = "canopy";
    static final String TLS = "canopy-tls";

    private final String name;
    private final Transport transport;
    private final Member peer;

    CanopyProbe(String name, Transport transport, Member peer) {
        this.name = name;
        this.transport = transport;
        this.peer = peer;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Future<long[]> roundTrips(int size, int count) {
        Promise<long[]> done = Promise.promise();
        transport.context().runOnContext(v -> new RoundTrips(size, count, done).start());
        return done.future();
    }

    @Override
    public Future<Long> stream(int size, int count, int window) {
        Promise<Long> done = Promise.promise();
        transport.context().runOnContext(v -> new Stream(size, count, window, done).start());
        return done.future();
    }

    @Override
    public Future<Void> close() {
        return transport.close();
    }

    private Frame frame(int tag, long sequence, Buffer payload) {
        return new Frame(FrameType.DATA, JOB, 0, 0, 0, 1, tag, sequence, payload);
    }

    /** Ping-pong on the transport's event loop: each echo sends the next message. */
    private final class RoundTrips {
        private final Buffer payload;
        private final long[] samples;
        private final Promise<long[]> done;
        private int index;
        private long sentAt;

        RoundTrips(int size, int count, Promise<long[]> done) {
            this.payload = Buffer.buffer(new byte[size]);
            this.samples = new long[count];
            this.done = done;
        }

        void start() {
            transport.frameHandler(echo -> {
                samples[index++] = System.nanoTime() - sentAt;
                if (index == samples.length) {
                    done.complete(samples);
                } else {
                    sendNext();
                }
            });
            sendNext();
        }

        private void sendNext() {
            sentAt = System.nanoTime();
            transport.send(peer, frame(EchoProtocol.TAG_ECHO, index, payload)).onFailure(done::tryFail);
        }
    }

    /**
     * A window of unacknowledged messages. Every eighth of a window (and the last message) asks
     * for an ACK; an ACK acknowledges everything up to its sequence, as frames arrive in order.
     */
    private final class Stream {
        private final Buffer payload;
        private final int count;
        private final int window;
        private final int ackEvery;
        private final Promise<Long> done;
        private int sent;
        private int acked;
        private long start;

        Stream(int size, int count, int window, Promise<Long> done) {
            this.payload = Buffer.buffer(new byte[size]);
            this.count = count;
            this.window = window;
            this.ackEvery = Math.max(1, window / 8);
            this.done = done;
        }

        void start() {
            transport.frameHandler(ack -> {
                acked = (int) ack.sequence() + 1;
                if (acked == count) {
                    done.complete(System.nanoTime() - start);
                } else {
                    fillWindow();
                }
            });
            start = System.nanoTime();
            fillWindow();
        }

        private void fillWindow() {
            while (sent < count && sent - acked < window) {
                boolean wantsAck = (sent + 1) % ackEvery == 0 || sent + 1 == count;
                int tag = wantsAck ? EchoProtocol.TAG_SINK : EchoProtocol.TAG_SINK_QUIET;
                transport.send(peer, frame(tag, sent++, payload)).onFailure(done::tryFail);
            }
        }
    }
}
