package dev.canopy.dynamic;

import dev.canopy.collectives.Collectives;
import dev.canopy.core.comm.PointToPoint;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The last step of making an inter-communicator, on every member of both groups: with
 * {@link InterPhase#TOPOLOGY} each accepting site representative measures the round trip to each connecting one
 * (the first exchange, with every peer at once, opens the connections and is not counted; the next is kept), the
 * accepting group shares the rows, and its rank 0 sends the table to the connecting rank 0, which
 * acknowledges it; each rank 0 then broadcasts the outcome in its group. So creation completes on a member only
 * once both groups reach each other, and every member builds the same {@link Leaders}.
 */
final class LeaderSetup {

    static final int SETUP_TAG = 0;
    /**
     * Untimed exchanges with each peer before the one timed exchange: the first opens the connection. One timed
     * exchange: each costs a round trip of the slowest pair on the way to every inter-communicator (a spawn's critical
     * path), and sites' round trips differ by far more than one sample's noise once every connection is open.
     */
    private static final int UNTIMED_ROUNDS = 1;

    private final InterTable table;
    private final PointToPoint channel;
    private final Collectives local;
    private final InterPhase phase;

    LeaderSetup(InterTable table, PointToPoint channel, Collectives local, InterPhase phase) {
        this.table = table;
        this.channel = channel;
        this.local = local;
        this.phase = phase;
    }

    Future<Leaders> run() {
        List<Integer> acceptReps = Leaders.representatives(table.group(Side.ACCEPT));
        List<Integer> connectReps = Leaders.representatives(table.group(Side.CONNECT));
        boolean measure = phase == InterPhase.TOPOLOGY;
        int rank = table.localRank();
        Future<Buffer> shared;
        if (table.mine() == Side.ACCEPT) {
            Future<Buffer> rows = !measure ? Future.succeededFuture(Buffer.buffer())
                    : (acceptReps.contains(rank) ? measureRow(connectReps) : Future.succeededFuture(Buffer.buffer()))
                            .compose(row -> local.allgatherv(row)).map(all -> concatenate(all));
            shared = rank == 0 ? Outcome.of(rows.compose(matrix -> {
                int peer = table.unionRank(Side.CONNECT, 0);
                return channel.send(peer, SETUP_TAG, matrix).compose(sent -> channel.receive(peer, SETUP_TAG))
                        .map(ack -> matrix);
            })) : rows.transform(r -> Future.succeededFuture(Buffer.buffer()));
        } else {
            Future<Void> echoed = measure && connectReps.contains(rank) ? echo(acceptReps) : Future.succeededFuture();
            shared = rank == 0 ? Outcome.of(echoed.compose(v -> {
                int peer = table.unionRank(Side.ACCEPT, 0);
                return channel.receive(peer, SETUP_TAG).compose(matrix -> channel.send(peer, SETUP_TAG, Buffer.buffer())
                        .map(acked -> matrix.payload()));
            })) : echoed.transform(r -> Future.succeededFuture(Buffer.buffer()));
        }
        return shared.compose(outcome -> local.bcast(outcome, 0))
                .map(outcome -> Outcome.open(outcome, "connecting the two groups"))
                .map(matrix -> new Leaders(table, phase, decode(matrix, measure ? acceptReps.size() : 0,
                        connectReps.size())));
    }

    /**
     * Round trips from this accepting representative to each connecting one, in ms, as doubles. Every connection opens
     * first (the untimed exchange, with all peers), and only then is every peer timed: a near peer timed while the
     * far ones' connections still open (handshakes, on a machine with few cores) would carry their CPU in its round
     * trip and could measure slower than a far one.
     */
    private Future<Buffer> measureRow(List<Integer> connectReps) {
        List<Integer> peers = connectReps.stream().map(rep -> table.unionRank(Side.CONNECT, rep)).toList();
        return rounds(peers, 0).compose(opened -> {
            List<Future<Double>> rtts = new ArrayList<>();
            for (int peer : peers) {
                long start = System.nanoTime();
                rtts.add(ping(peer).map(pong -> (System.nanoTime() - start) / 1e6));
            }
            return Future.all(rtts).map(all -> {
                Buffer row = Buffer.buffer(rtts.size() * Double.BYTES);
                rtts.forEach(rtt -> row.appendDouble(rtt.result()));
                return row;
            });
        });
    }

    /** The untimed rounds from {@code round} on, with every peer at once, each round once the one before is done. */
    private Future<Void> rounds(List<Integer> peers, int round) {
        if (round >= UNTIMED_ROUNDS) {
            return Future.succeededFuture();
        }
        return Future.all(peers.stream().map(this::ping).toList()).compose(done -> rounds(peers, round + 1));
    }

    private Future<Void> ping(int peer) {
        return channel.send(peer, SETUP_TAG, Buffer.buffer()).compose(sent -> channel.receive(peer, SETUP_TAG)).mapEmpty();
    }

    /** Answers each accepting representative's pings, all of them at once. */
    private Future<Void> echo(List<Integer> acceptReps) {
        List<Future<Void>> all = new ArrayList<>();
        for (int rep : acceptReps) {
            all.add(echo(table.unionRank(Side.ACCEPT, rep), 0));
        }
        return Future.all(all).mapEmpty();
    }

    private Future<Void> echo(int peer, int round) {
        if (round > UNTIMED_ROUNDS) {
            return Future.succeededFuture();
        }
        return channel.receive(peer, SETUP_TAG).compose(ping -> channel.send(peer, SETUP_TAG, Buffer.buffer()))
                .compose(sent -> echo(peer, round + 1));
    }

    private static Buffer concatenate(List<Buffer> rows) {
        Buffer all = Buffer.buffer();
        rows.forEach(all::appendBuffer);
        return all;
    }

    /** The round-trip table as the accepting rank 0 sent it: exactly rows x columns finite, non-negative values. */
    private static double[][] decode(Buffer matrix, int rows, int columns) {
        if (matrix.length() != rows * columns * Double.BYTES) {
            throw new InterCommunicatorException("connecting the two groups: the round-trip table has " + matrix.length()
                    + " bytes, not " + rows + " x " + columns + " values (do both jobs run the same Canopy version and"
                    + " inter phase?)");
        }
        double[][] rtt = new double[rows][columns];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < columns; j++) {
                double value = matrix.getDouble((i * columns + j) * Double.BYTES);
                if (!(value >= 0) || Double.isInfinite(value)) {
                    throw new InterCommunicatorException("connecting the two groups: round trip " + value + " ms in the"
                            + " table is not a finite number >= 0");
                }
                rtt[i][j] = value;
            }
        }
        return rtt;
    }
}
