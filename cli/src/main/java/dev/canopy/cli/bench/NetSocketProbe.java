package dev.canopy.cli.bench;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;

/**
 * The baseline: the same messages as raw bytes on plain Vert.x NetSockets, to a server that echoes
 * each whole message (round trips) and to a sink that answers one byte per message (streams). One
 * connection per measurement, a 4-byte message size first, then no framing and no queues: what
 * Canopy's transport costs is the difference.
 */
final class NetSocketProbe implements P2pProbe {

    private final Context context;
    private final NetClient client;
    private final String host;
    private final int echoPort;
    private final int sinkPort;

    private NetSocketProbe(Context context, NetClient client, String host, int echoPort, int sinkPort) {
        this.context = context;
        this.client = client;
        this.host = host;
        this.echoPort = echoPort;
        this.sinkPort = sinkPort;
    }

    /** A probe of the peer's echo server and sink, connected per measurement, on a new context. */
    static P2pProbe create(Vertx vertx, String host, int echoPort, int sinkPort) {
        return new NetSocketProbe(vertx.getOrCreateContext(),
                vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true)), host, echoPort, sinkPort);
    }

    @Override
    public String name() {
        return "netsocket";
    }

    @Override
    public Future<long[]> roundTrips(int size, int count) {
        Promise<long[]> done = Promise.promise();
        context.runOnContext(v -> client.connect(echoPort, host).onFailure(done::tryFail).onSuccess(echo -> {
            Buffer message = Buffer.buffer(new byte[size]);
            long[] samples = new long[count];
            long[] state = new long[3]; // index, bytes received of the current echo, sent at
            echo.handler(bytes -> {
                state[1] += bytes.length();
                if (state[1] < size) {
                    return;
                }
                samples[(int) state[0]++] = System.nanoTime() - state[2];
                state[1] = 0;
                if (state[0] == count) {
                    done.complete(samples);
                    echo.close();
                } else {
                    state[2] = System.nanoTime();
                    echo.write(message);
                }
            });
            echo.write(Buffer.buffer().appendInt(size));
            state[2] = System.nanoTime();
            echo.write(message).onFailure(done::tryFail);
        }));
        return done.future();
    }

    @Override
    public Future<Long> stream(int size, int count, int window) {
        Promise<Long> done = Promise.promise();
        context.runOnContext(v -> client.connect(sinkPort, host).onFailure(done::tryFail).onSuccess(sink -> {
            Buffer message = Buffer.buffer(new byte[size]);
            long[] state = new long[3]; // sent, acknowledged, start
            sink.handler(acks -> {
                state[1] += acks.length();
                while (state[0] < count && state[0] - state[1] < window) {
                    state[0]++;
                    sink.write(message);
                }
                if (state[1] == count) {
                    done.complete(System.nanoTime() - state[2]);
                    sink.close();
                }
            });
            state[2] = System.nanoTime();
            sink.write(Buffer.buffer().appendInt(size));
            while (state[0] < Math.min(window, count)) {
                state[0]++;
                sink.write(message);
            }
        }));
        return done.future();
    }

    @Override
    public Future<Void> close() {
        return client.close();
    }
}
