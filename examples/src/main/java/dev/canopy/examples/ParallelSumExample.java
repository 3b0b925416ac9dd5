package dev.canopy.examples;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.BlockingCollectives;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import java.util.Optional;
import java.util.stream.LongStream;

/**
 * A grid-wide parallel sum: rank 0 scatters the numbers 1..N in equal slices, each rank sums its
 * slice, rank 0 gathers the partial sums and checks the total against N(N+1)/2.
 */
public final class ParallelSumExample implements CanopyProgram {

    private static final int PER_RANK = 1_000;

    @Override
    public void run(CanopySession session) {
        BlockingCollectives<long[]> longs = session.blocking(ArrayType.LONGS);
        long n = (long) PER_RANK * session.size();
        long[] numbers = session.rank() == 0 ? LongStream.rangeClosed(1, n).toArray() : null;

        long[] slice = longs.scatter(numbers, PER_RANK, 0);
        long partial = LongStream.of(slice).sum();
        Optional<long[]> partials = longs.gather(new long[] {partial}, 0);

        partials.ifPresent(all -> {
            long total = LongStream.of(all).sum();
            System.out.println("sum of 1.." + n + " over " + session.size() + " ranks = " + total
                    + (total == n * (n + 1) / 2 ? " (correct)" : " (WRONG, expected " + n * (n + 1) / 2 + ")"));
        });
    }
}
