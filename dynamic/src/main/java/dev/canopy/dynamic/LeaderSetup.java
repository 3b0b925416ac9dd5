package dev.canopy.dynamic;

import dev.canopy.collectives.Collectives;
import dev.canopy.core.comm.PointToPoint;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.LinkOrigin;
import dev.canopy.gridconfig.model.LinkSpec;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The last step of making an inter-communicator, on every member of both groups: the round trips between every
 * accepting and every connecting site representative ({@link InterPhase#TOPOLOGY}). When the accepting group's level
 * file has a configured link for every pair of their sites (as for a spawn, whose children's grid is cut from the
 * parents'), the table comes from those links and nothing is measured: the accepting rank 0 sends it to the
 * connecting rank 0, which acknowledges it. Otherwise the accepting rank 0 first tells the connecting one to measure,
 * each accepting representative measures the round trip to each connecting one (the first exchange, with every peer
 * at once, opens the connections and is not counted; of the next {@value #TIMED_ROUNDS} the fastest is kept), the
 * accepting group shares the rows, and the table goes over as before. Each rank 0 broadcasts what it has in its
 * group. So creation completes on a member only once both groups reach each other, and every member builds the same
 * {@link Leaders}.
 */
final class LeaderSetup {

    static final int SETUP_TAG = 0;
    /** Untimed exchanges with each peer before the timed ones: the first opens the connection. */
    private static final int UNTIMED_ROUNDS = 1;
    /**
     * Timed exchanges with each peer, one round after another; a pair's round trip is the fastest. One sample is not
     * enough: a representative whose process is starved or paused while a near peer's answer arrives (a loaded
     * machine, a GC) measures that pair as slow as the far ones or slower, and the crossing goes between far sites.
     * Each round costs a round trip of the slowest pair on the way to every inter-communicator (a spawn's critical
     * path), so only a few.
     */
    private static final int TIMED_ROUNDS = 3;
    /** What the accepting rank 0 tells the connecting one first: the table follows at once, or after measuring. */
    private static final byte TABLE = 0;
    private static final byte MEASURE = 1;

    private final InterTable table;
    private final PointToPoint channel;
    private final Collectives local;
    private final InterPhase phase;
    private final GridModel grid;

    /** {@code grid} is the level file of this group: where the accepting group looks up its links. */
    LeaderSetup(InterTable table, PointToPoint channel, Collectives local, InterPhase phase, GridModel grid) {
        this.table = table;
        this.channel = channel;
        this.local = local;
        this.phase = phase;
        this.grid = grid;
    }

    Future<Leaders> run() {
        List<Integer> acceptReps = Leaders.representatives(table.group(Side.ACCEPT));
        List<Integer> connectReps = Leaders.representatives(table.group(Side.CONNECT));
        int rows = phase == InterPhase.TOPOLOGY ? acceptReps.size() : 0;
        Future<Buffer> matrix = table.mine() == Side.ACCEPT ? accepting(acceptReps, connectReps)
                : connecting(acceptReps, connectReps);
        return matrix.map(rtts -> new Leaders(table, phase, decode(rtts, rows, connectReps.size())));
    }

    /** Every accepting member computes the same choice from the same level file and records. */
    private Future<Buffer> accepting(List<Integer> acceptReps, List<Integer> connectReps) {
        int rank = table.localRank();
        int peer = table.unionRank(Side.CONNECT, 0);
        Optional<Buffer> configured = phase == InterPhase.FLAT ? Optional.of(Buffer.buffer())
                : configuredRoundTrips(acceptReps, connectReps);
        Future<Buffer> rows;
        if (configured.isPresent()) {
            rows = Future.succeededFuture(configured.get());
        } else {
            Future<Void> told = rank == 0 ? channel.send(peer, SETUP_TAG, Buffer.buffer().appendByte(MEASURE))
                    : Future.succeededFuture();
            rows = told.compose(v -> acceptReps.contains(rank) ? measureRow(connectReps) : Future.succeededFuture(Buffer.buffer()))
                    .compose(row -> local.allgatherv(row)).map(LeaderSetup::concatenate);
        }
        Future<Buffer> shared = rank == 0 ? Outcome.of(rows.compose(rtts -> channel.send(peer, SETUP_TAG,
                        Buffer.buffer().appendByte(TABLE).appendBuffer(rtts))
                .compose(sent -> channel.receive(peer, SETUP_TAG)).map(ack -> rtts)))
                : rows.transform(r -> Future.succeededFuture(Buffer.buffer()));
        return shared.compose(outcome -> local.bcast(outcome, 0)).map(outcome -> Outcome.open(outcome, "connecting the two groups"));
    }

    /** The connecting rank 0 hears first whether the accepting group measures; its group learns it by a broadcast. */
    private Future<Buffer> connecting(List<Integer> acceptReps, List<Integer> connectReps) {
        int rank = table.localRank();
        Future<Buffer> first = rank == 0 ? Outcome.of(fromAcceptingRoot()) : Future.succeededFuture(Buffer.buffer());
        return first.compose(outcome -> local.bcast(outcome, 0)).compose(outcome -> {
            Buffer message = Outcome.open(outcome, "connecting the two groups");
            if (message.length() > 0 && message.getByte(0) == TABLE) {
                return Future.succeededFuture(message.slice(1, message.length()));
            }
            Future<Void> echoed = connectReps.contains(rank) ? echo(acceptReps) : Future.succeededFuture();
            Future<Buffer> measured = rank == 0 ? Outcome.of(echoed.compose(v -> fromAcceptingRoot()))
                    : echoed.transform(r -> Future.succeededFuture(Buffer.buffer()));
            return measured.compose(again -> local.bcast(again, 0)).map(again -> {
                Buffer table = Outcome.open(again, "connecting the two groups");
                if (table.length() == 0 || table.getByte(0) != TABLE) {
                    throw new InterCommunicatorException("connecting the two groups: the other group's rank 0 sent no"
                            + " round-trip table after measuring (do both jobs run the same Canopy version?)");
                }
                return table.slice(1, table.length());
            });
        });
    }

    /** At the connecting rank 0: the accepting rank 0's next message, acknowledged when it is the table. */
    private Future<Buffer> fromAcceptingRoot() {
        int peer = table.unionRank(Side.ACCEPT, 0);
        return channel.receive(peer, SETUP_TAG).compose(message -> {
            Buffer payload = message.payload();
            boolean isTable = payload.length() > 0 && payload.getByte(0) == TABLE;
            return isTable ? channel.send(peer, SETUP_TAG, Buffer.buffer()).map(acked -> payload)
                    : Future.succeededFuture(payload);
        });
    }

    /**
     * The round trips between the representatives' sites from this group's level file (the mean of both directions'
     * links; 0 within a site), when it has a configured link for every pair; else empty (they are measured).
     */
    private Optional<Buffer> configuredRoundTrips(List<Integer> acceptReps, List<Integer> connectReps) {
        Buffer rtts = Buffer.buffer(acceptReps.size() * connectReps.size() * Double.BYTES);
        for (int accepting : acceptReps) {
            String from = table.group(Side.ACCEPT).members().get(accepting).coordinates().site();
            for (int connecting : connectReps) {
                String to = table.group(Side.CONNECT).members().get(connecting).coordinates().site();
                if (from.equals(to)) {
                    rtts.appendDouble(0);
                    continue;
                }
                if (grid.site(from).isEmpty() || grid.site(to).isEmpty()) {
                    return Optional.empty();
                }
                LinkSpec there = grid.linkBetween(from, to);
                LinkSpec back = grid.linkBetween(to, from);
                if (there.origin() == LinkOrigin.DEFAULT || back.origin() == LinkOrigin.DEFAULT) {
                    return Optional.empty();
                }
                rtts.appendDouble((there.rttMs() + back.rttMs()) / 2);
            }
        }
        return Optional.of(rtts);
    }

    /**
     * Round trips from this accepting representative to each connecting one, in ms, as doubles. Every connection opens
     * first (the untimed exchange, with all peers), and only then is every peer timed: a near peer timed while the
     * far ones' connections still open (handshakes, on a machine with few cores) would carry their CPU in its round
     * trip and could measure slower than a far one.
     */
    private Future<Buffer> measureRow(List<Integer> connectReps) {
        List<Integer> peers = connectReps.stream().map(rep -> table.unionRank(Side.CONNECT, rep)).toList();
        double[] fastest = new double[peers.size()];
        Arrays.fill(fastest, Double.POSITIVE_INFINITY);
        return rounds(peers, 0).compose(opened -> timedRounds(peers, fastest, 0)).map(timed -> {
            Buffer row = Buffer.buffer(fastest.length * Double.BYTES);
            for (double rtt : fastest) {
                row.appendDouble(rtt);
            }
            return row;
        });
    }

    /** The timed rounds from {@code round} on, with every peer at once; {@code fastest} keeps each peer's best. */
    private Future<Void> timedRounds(List<Integer> peers, double[] fastest, int round) {
        if (round >= TIMED_ROUNDS) {
            return Future.succeededFuture();
        }
        List<Future<Void>> pings = new ArrayList<>();
        for (int i = 0; i < peers.size(); i++) {
            int index = i;
            long start = System.nanoTime();
            pings.add(ping(peers.get(i)).map(pong -> {
                fastest[index] = Math.min(fastest[index], (System.nanoTime() - start) / 1e6);
                return null;
            }));
        }
        return Future.all(pings).compose(done -> timedRounds(peers, fastest, round + 1));
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
        if (round >= UNTIMED_ROUNDS + TIMED_ROUNDS) {
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
