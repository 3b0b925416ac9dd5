package dev.canopy.collectives.reference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.engine.Operation;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Runs one {@link CollectiveCase} on every member of a communicator (one {@link Collectives} per
 * rank, all in this JVM), waits for every member with a deadline and compares each member's result
 * with {@link SequentialReference}.
 */
public final class CaseRunner {

    private static final long DEADLINE_SECONDS = 60;

    private CaseRunner() {
    }

    public static void run(CollectiveCase c, List<Collectives> members) {
        run(c, c.sizeClass().bytes(), c.root(), members);
    }

    /**
     * Runs {@code c} with {@code bytes} in place of its size class's and {@code root} in place of its root
     * position's (for callers drawing arbitrary sizes and roots, such as the soak run).
     */
    public static void run(CollectiveCase c, int bytes, int root, List<Collectives> members) {
        int n = members.size();
        Random random = new Random(c.dataSeed());
        switch (c.operation()) {
            case BARRIER -> expectAll(c, each(members, m -> m.barrier().map(v -> Buffer.buffer())), r -> Buffer.buffer());
            case BCAST -> {
                Buffer data = randomBytes(random, bytes);
                expectAll(c, each(members, m -> m.bcast(m.rank() == root ? data : null, root)), r -> data);
            }
            case SCATTER -> {
                int block = bytes / n;
                Buffer data = randomBytes(random, block * n);
                List<Buffer> blocks = SequentialReference.cut(data, block, n);
                expectAll(c, each(members, m -> m.scatter(m.rank() == root ? data : null, block, root)), blocks::get);
            }
            case SCATTERV -> {
                List<Buffer> blocks = variableBlocks(random, n, bytes);
                expectAll(c, each(members, m -> m.scatterv(m.rank() == root ? blocks : null, root)), blocks::get);
            }
            case GATHER -> {
                List<Buffer> inputs = equalBlocks(random, n, bytes / n);
                Buffer all = SequentialReference.concatenation(inputs);
                expectAll(c, each(members, m -> m.gather(inputs.get(m.rank()), root)),
                        r -> r == root ? Optional.of(all) : Optional.empty());
            }
            case GATHERV -> {
                List<Buffer> inputs = variableBlocks(random, n, bytes);
                expectAll(c, each(members, m -> m.gatherv(inputs.get(m.rank()), root)),
                        r -> r == root ? Optional.of(inputs) : Optional.empty());
            }
            case ALLGATHER -> {
                List<Buffer> inputs = equalBlocks(random, n, bytes / n);
                Buffer all = SequentialReference.concatenation(inputs);
                expectAll(c, each(members, m -> m.allgather(inputs.get(m.rank()))), r -> all);
            }
            case ALLGATHERV -> {
                List<Buffer> inputs = variableBlocks(random, n, bytes);
                expectAll(c, each(members, m -> m.allgatherv(inputs.get(m.rank()))), r -> inputs);
            }
            case REDUCE, ALLREDUCE, SCAN, EXSCAN, REDUCE_SCATTER -> runReduction(c, bytes, root, members, random);
            case ALLTOALL -> {
                int block = bytes / n;
                List<List<Buffer>> blocks = new ArrayList<>();
                for (int r = 0; r < n; r++) {
                    blocks.add(equalBlocks(random, n, block));
                }
                expectAll(c, each(members, m -> m.alltoall(SequentialReference.concatenation(blocks.get(m.rank())), block)),
                        r -> SequentialReference.concatenation(SequentialReference.transpose(blocks, r)));
            }
            case ALLTOALLV -> {
                List<List<Buffer>> blocks = new ArrayList<>();
                for (int r = 0; r < n; r++) {
                    blocks.add(variableBlocks(random, n, bytes));
                }
                expectAll(c, each(members, m -> m.alltoallv(blocks.get(m.rank()))),
                        r -> SequentialReference.transpose(blocks, r));
            }
        }
    }

    private static void runReduction(CollectiveCase c, int givenBytes, int root, List<Collectives> members,
            Random random) {
        int n = members.size();
        ReductionChoice reduction = c.reduction();
        int bytes = reduction.fit(givenBytes);
        List<Buffer> inputs = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            inputs.add(reduction.input(r, bytes, random));
        }
        var op = reduction.op();
        var type = reduction.type();
        switch (c.operation()) {
            case REDUCE -> {
                Buffer expected = SequentialReference.reduction(inputs, type, op);
                expectAll(c, each(members, m -> m.reduce(inputs.get(m.rank()), type, op, root)),
                        r -> r == root ? Optional.of(expected) : Optional.empty());
            }
            case ALLREDUCE -> {
                Buffer expected = SequentialReference.reduction(inputs, type, op);
                expectAll(c, each(members, m -> m.allreduce(inputs.get(m.rank()), type, op)), r -> expected);
            }
            case SCAN -> {
                List<Buffer> expected = SequentialReference.inclusivePrefixes(inputs, type, op);
                expectAll(c, each(members, m -> m.scan(inputs.get(m.rank()), type, op)), expected::get);
            }
            case EXSCAN -> {
                List<Buffer> expected = SequentialReference.inclusivePrefixes(inputs, type, op);
                expectAll(c, each(members, m -> m.exscan(inputs.get(m.rank()), type, op)),
                        r -> r == 0 ? Optional.empty() : Optional.of(expected.get(r - 1)));
            }
            default -> {
                int unit = op == ReductionChoice.AFFINE_COMPOSITION ? 2 : 1;
                int elements = type.elementCount(bytes) / unit;
                int[] counts = new int[n];
                for (int r = 0; r < n; r++) {
                    counts[r] = (elements * (r + 1) / n - elements * r / n) * unit;
                }
                List<Buffer> expected = SequentialReference.reducedBlocks(inputs, type, op, counts);
                expectAll(c, each(members, m -> m.reduceScatter(inputs.get(m.rank()), type, op, counts)), expected::get);
            }
        }
    }

    private static <T> List<Future<T>> each(List<Collectives> members, java.util.function.Function<Collectives, Future<T>> call) {
        List<Future<T>> futures = new ArrayList<>();
        for (Collectives member : members) {
            futures.add(call.apply(member));
        }
        return futures;
    }

    private static <T> void expectAll(CollectiveCase c, List<Future<T>> futures, IntFunction<Object> expected) {
        for (int rank = 0; rank < futures.size(); rank++) {
            Object actual = await(c, rank, futures.get(rank));
            assertThat(actual).as("%s: result of rank %d", c, rank).isEqualTo(expected.apply(rank));
        }
    }

    public static <T> T await(Object what, int rank, Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(DEADLINE_SECONDS, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(what + ": rank " + rank + " did not complete within " + DEADLINE_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new AssertionError(what + ": rank " + rank + " failed: " + e.getCause(), e.getCause());
        }
    }

    private static Buffer randomBytes(Random random, int bytes) {
        byte[] data = new byte[bytes];
        random.nextBytes(data);
        return Buffer.buffer(data);
    }

    private static List<Buffer> equalBlocks(Random random, int n, int block) {
        List<Buffer> blocks = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            blocks.add(randomBytes(random, block));
        }
        return blocks;
    }

    /** n blocks of random lengths (some empty) adding up to at most {@code total} bytes. */
    private static List<Buffer> variableBlocks(Random random, int n, int total) {
        List<Buffer> blocks = new ArrayList<>(n);
        int average = total / n;
        for (int r = 0; r < n; r++) {
            int length = average == 0 || random.nextInt(5) == 0 ? 0 : random.nextInt(2 * average);
            blocks.add(randomBytes(random, Math.min(length, total / n * 2)));
        }
        return blocks;
    }
}
