package dev.canopy.cli.demo;

import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.Message;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Each-to-each ping over WORLD: every node answers pings; every rank pings every other rank
 * {@code pings} times and keeps the median round trip ({@code rtt[from][to]}; the diagonal is 0).
 * All ranks ping at once, but each rank has one ping outstanding at a time, so the measurement does not
 * queue thousands of pings behind each other in one JVM.
 */
final class PingMatrix {

    private static final int PING_TAG = 100;
    private static final int PONG_TAG = 101;

    private PingMatrix() {
    }

    /** Answers every ping until the communicator stops working (the node leaves). */
    static void answerPings(Communicator world) {
        world.receive(Communicator.ANY_SOURCE, PING_TAG).onSuccess(ping -> {
            world.send(ping.source(), PONG_TAG, ping.payload());
            answerPings(world);
        });
    }

    /** Measures the matrix, all ranks at once; {@code worlds} holds every node's WORLD, indexed by rank. */
    static Future<double[][]> measure(List<Communicator> worlds, int pings) {
        int size = worlds.size();
        double[][] rtt = new double[size][size];
        List<Future<Void>> rows = new ArrayList<>();
        for (int from = 0; from < size; from++) {
            rows.add(pingEveryone(worlds.get(from), pings, rtt[from]));
        }
        return Future.all(rows).map(v -> rtt);
    }

    /**
     * Measures the round trips between {@code representatives} (ranks, e.g. one per site), every pair at once and
     * {@code pings} times each: a few of the slowest round trips instead of a whole matrix's sum. Returns the median
     * per ordered pair, indexed like {@code representatives}.
     */
    static Future<double[][]> measureBetween(List<Communicator> worlds, List<Integer> representatives, int pings) {
        int size = representatives.size();
        double[][] rtt = new double[size][size];
        List<Future<Void>> pairs = new ArrayList<>();
        for (int from = 0; from < size; from++) {
            for (int to = 0; to < size; to++) {
                if (from != to) {
                    double[] row = rtt[from];
                    int column = to;
                    pairs.add(pingRepeatedly(worlds.get(representatives.get(from)), representatives.get(to), pings,
                            new double[pings], 0).map(samples -> {
                                row[column] = median(samples);
                                return null;
                            }));
                }
            }
        }
        return Future.all(pairs).map(v -> rtt);
    }

    private static Future<Void> pingEveryone(Communicator world, int pings, double[] row) {
        Future<Void> chain = Future.succeededFuture();
        for (int to = 0; to < world.size(); to++) {
            if (to != world.rank()) {
                int destination = to;
                chain = chain.compose(v -> pingRepeatedly(world, destination, pings, new double[pings], 0))
                        .map(samples -> {
                            row[destination] = median(samples);
                            return null;
                        });
            }
        }
        return chain;
    }

    private static Future<double[]> pingRepeatedly(Communicator world, int to, int pings, double[] samples, int done) {
        if (done == pings) {
            return Future.succeededFuture(samples);
        }
        long sent = System.nanoTime();
        Future<Message> pong = world.receive(to, PONG_TAG);
        return world.send(to, PING_TAG, Buffer.buffer().appendLong(sent))
                .compose(v -> pong)
                .compose(message -> {
                    samples[done] = (System.nanoTime() - message.payload().getLong(0)) / 1e6;
                    return pingRepeatedly(world, to, pings, samples, done + 1);
                });
    }

    private static double median(double[] samples) {
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
