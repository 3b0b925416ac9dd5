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
 * (the first exchange opens the connection and is not counted; the next {@value #TIMED_ROUNDS} is kept), the
 * accepting group shares the rows, and its rank 0 sends the table to the connecting rank 0, which
 * acknowledges it; each rank 0 then broadcasts the outcome in its group. So creation completes on a member only
 * once both groups reach each other, and every member builds the same {@link Leaders}.
 */
final class LeaderSetup {

    static final int SETUP_TAG = 0;
    /**
     * One timed exchange: each round costs a round trip of the slowest pair on the way to every inter-communicator
     * (a spawn's critical path), and sites' round trips differ by far more than one sample's noise.
     */
    private static final int TIMED_ROUNDS = 1;

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

    /** Round trips from this accepting representative to each connecting one, in ms, as doubles. */
    private Future<Buffer> measureRow(List<Integer> connectReps) {
        List<Future<Double>> rtts = new ArrayList<>();
        for (int rep : connectReps) {
            rtts.add(ping(table.unionRank(Side.CONNECT, rep), 0, Double.POSITIVE_INFINITY));
        }
        return Future.all(rtts).map(all -> {
            Buffer row = Buffer.buffer(rtts.size() * Double.BYTES);
            rtts.forEach(rtt -> row.appendDouble(rtt.result()));
            return row;
        });
    }

    private Future<Double> ping(int peer, int round, double best) {
        if (round > TIMED_ROUNDS) {
            return Future.succeededFuture(best);
        }
        long start = System.nanoTime();
        return channel.send(peer, SETUP_TAG, Buffer.buffer()).compose(sent -> channel.receive(peer, SETUP_TAG))
                .compose(pong -> {
                    double ms = (System.nanoTime() - start) / 1e6;
                    return ping(peer, round + 1, round == 0 ? best : Math.min(best, ms));
                });
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
        if (round > TIMED_ROUNDS) {
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
