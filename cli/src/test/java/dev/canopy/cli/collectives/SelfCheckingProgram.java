package dev.canopy.cli.collectives;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.BlockingCollectives;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Launched by the tests in one JVM per process: runs every operation with inputs whose results have
 * a closed form (rank r contributes values derived from r) and checks its own result, from every
 * root. Prints "self-check passed" or throws naming the first wrong result.
 */
public final class SelfCheckingProgram implements CanopyProgram {

    @Override
    public void run(CanopySession session) {
        BlockingCollectives<long[]> c = session.blocking(ArrayType.LONGS);
        int n = session.size();
        int r = session.rank();
        long sumOfRanks = (long) n * (n - 1) / 2;
        c.barrier();
        for (int root = 0; root < n; root++) {
            checkRooted(c, root, r, n, sumOfRanks);
        }
        checkUnrooted(c, r, n, sumOfRanks);
        System.out.println("self-check passed");
    }

    private static void checkRooted(BlockingCollectives<long[]> c, int root, int r, int n, long sumOfRanks) {
        expect("bcast", c.bcast(r == root ? new long[] {root, 7} : null, root), new long[] {root, 7});
        long[] all = new long[2 * n];
        Arrays.setAll(all, i -> 100L * root + i);
        expect("scatter", c.scatter(r == root ? all : null, 2, root), new long[] {100L * root + 2 * r, 100L * root + 2 * r + 1});
        List<long[]> blocks = new ArrayList<>();
        for (int d = 0; d < n; d++) {
            blocks.add(new long[d]);
        }
        expect("scatterv", c.scatterv(r == root ? blocks : null, root), new long[r]);
        long[] ranks = new long[n];
        Arrays.setAll(ranks, i -> i);
        expect("gather", c.gather(new long[] {r}, root).orElse(null), r == root ? ranks : null);
        expect("gatherv", c.gatherv(new long[r], root).map(List::size).orElse(-1).longValue(), r == root ? n : -1);
        expect("reduce", c.reduce(new long[] {r, 1}, BuiltInOp.SUM, root).orElse(null),
                r == root ? new long[] {sumOfRanks, n} : null);
    }

    private static void checkUnrooted(BlockingCollectives<long[]> c, int r, int n, long sumOfRanks) {
        long[] ranks = new long[n];
        Arrays.setAll(ranks, i -> i);
        expect("allgather", c.allgather(new long[] {r}), ranks);
        expect("allgatherv", c.allgatherv(new long[r]).size(), n);
        expect("allreduce", c.allreduce(new long[] {r, 1}, BuiltInOp.MAX), new long[] {n - 1, 1});
        int[] counts = new int[n];
        Arrays.fill(counts, 1);
        long[] vector = new long[n];
        Arrays.setAll(vector, i -> i * (long) r);
        expect("reduce_scatter", c.reduceScatter(vector, BuiltInOp.SUM, counts), new long[] {r * sumOfRanks});
        expect("scan", c.scan(new long[] {r}, BuiltInOp.SUM), new long[] {(long) r * (r + 1) / 2});
        expect("exscan", c.exscan(new long[] {r}, BuiltInOp.SUM).orElse(null), r == 0 ? null : new long[] {(long) r * (r - 1) / 2});
        long[] outgoing = new long[n];
        Arrays.setAll(outgoing, d -> 10L * r + d);
        long[] incoming = new long[n];
        Arrays.setAll(incoming, s -> 10L * s + r);
        expect("alltoall", c.alltoall(outgoing, 1), incoming);
        List<long[]> out = new ArrayList<>();
        for (int d = 0; d < n; d++) {
            out.add(new long[] {r, d});
        }
        List<long[]> in = c.alltoallv(out);
        for (int s = 0; s < n; s++) {
            expect("alltoallv", in.get(s), new long[] {s, r});
        }
    }

    private static void expect(String operation, long[] actual, long[] expected) {
        if (!Arrays.equals(actual, expected)) {
            throw new AssertionError(operation + " gave " + Arrays.toString(actual) + ", expected " + Arrays.toString(expected));
        }
    }

    private static void expect(String operation, long actual, long expected) {
        if (actual != expected) {
            throw new AssertionError(operation + " gave " + actual + ", expected " + expected);
        }
    }
}
