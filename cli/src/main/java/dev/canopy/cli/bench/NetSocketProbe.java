package dev.canopy.cli.bench;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;

/**
 * The baseline: the same messages as raw bytes on plain Vert.x NetSockets, to an echo server (round
 * trips) and to a sink that answers one byte per message (streams). No framing, no queues: what
 * Canopy's transport costs is the difference.
 */
final class NetSocketProbe implements P2pProbe {

    private final Context context;
    private final NetClient client;
    private final NetSocket echo;
    private final int sinkPort;
    private final String host;

    private NetSocketProbe(Context context, NetClient client, NetSocket echo, String host, int sinkPort) {
        this.context = context;
        this.client = client;
        this.echo = echo;
        this.host = host;
        this.sinkPort = sinkPort;
    }

    /** Connects to the peer's echo server; sinks are connected per stream. Runs on a new context. */
    static Future<P2pProbe> connect(Vertx vertx, String host, int echoPort, int sinkPort) {
        Context context = vertx.getOrCreateContext();
        Promise<P2pProbe> connected = Promise.promise();
        context.runOnContext(v -> {
            NetClient client = vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true));
            client.connect(echoPort, host)
                    .<P2pProbe>map(socket -> new NetSocketProbe(context, client, socket, host, sinkPort))
                    .onComplete(connected);
        });
        return connected.future();
    }

    @Override
    public String name() {
        return "netsocket";
    }

    @Override
    public Future<long[]> roundTrips(int size, int count) {
        Promise<long[]> done = Promise.promise();
        context.runOnContext(v -> {
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
                } else {
                    state[2] = System.nanoTime();
                    echo.write(message);
                }
            });
            state[2] = System.nanoTime();
            echo.write(message).onFailure(done::tryFail);
        });
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
        return echo.close().eventually(() -> client.close());
    }
}
