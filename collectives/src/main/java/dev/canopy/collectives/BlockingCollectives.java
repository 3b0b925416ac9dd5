package dev.canopy.collectives;

import dev.canopy.collectives.reduce.ReduceOp;
import java.util.List;
import java.util.Optional;

/**
 * The blocking facade for MPI-style programs: each call waits for the collective on the calling
 * thread (never an event loop, see {@link Blocking}) and returns its result or throws its failure.
 *
 * @param <A> the array type, e.g. {@code double[]}
 */
public final class BlockingCollectives<A> {

    private final Collectives collectives;
    private final TypedCollectives<A> typed;

    public BlockingCollectives(Collectives collectives, ArrayType<A> type) {
        this.collectives = collectives;
        this.typed = collectives.typed(type);
    }

    public int rank() {
        return collectives.rank();
    }

    public int size() {
        return collectives.size();
    }

    public void barrier() {
        Blocking.await(collectives.barrier());
    }

    public A bcast(A values, int root) {
        return Blocking.await(typed.bcast(values, root));
    }

    public A scatter(A values, int countPerRank, int root) {
        return Blocking.await(typed.scatter(values, countPerRank, root));
    }

    public A scatterv(List<A> blocks, int root) {
        return Blocking.await(typed.scatterv(blocks, root));
    }

    public Optional<A> gather(A values, int root) {
        return Blocking.await(typed.gather(values, root));
    }

    public Optional<List<A>> gatherv(A values, int root) {
        return Blocking.await(typed.gatherv(values, root));
    }

    public A allgather(A values) {
        return Blocking.await(typed.allgather(values));
    }

    public List<A> allgatherv(A values) {
        return Blocking.await(typed.allgatherv(values));
    }

    public Optional<A> reduce(A values, ReduceOp op, int root) {
        return Blocking.await(typed.reduce(values, op, root));
    }

    public A allreduce(A values, ReduceOp op) {
        return Blocking.await(typed.allreduce(values, op));
    }

    public A reduceScatter(A values, ReduceOp op, int[] counts) {
        return Blocking.await(typed.reduceScatter(values, op, counts));
    }

    public A scan(A values, ReduceOp op) {
        return Blocking.await(typed.scan(values, op));
    }

    public Optional<A> exscan(A values, ReduceOp op) {
        return Blocking.await(typed.exscan(values, op));
    }

    public A alltoall(A values, int countPerRank) {
        return Blocking.await(typed.alltoall(values, countPerRank));
    }

    public List<A> alltoallv(List<A> blocks) {
        return Blocking.await(typed.alltoallv(blocks));
    }
}
