package dev.canopy.dynamic;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.reduce.ReduceOp;
import io.vertx.core.buffer.Buffer;
import java.util.Optional;

/**
 * A thin blocking view of an {@link InterCommunicator} on arrays of one type, for MPI-style code on plain
 * threads (never on an event loop: {@link Blocking#await} refuses). Arguments and results as in the
 * asynchronous methods; counts are in elements.
 */
public final class BlockingInterCommunicator<A> {

    private final InterCommunicator inter;
    private final ArrayType<A> type;

    BlockingInterCommunicator(InterCommunicator inter, ArrayType<A> type) {
        this.inter = inter;
        this.type = type;
    }

    public int rank() {
        return inter.rank();
    }

    public int size() {
        return inter.size();
    }

    public int remoteSize() {
        return inter.remoteSize();
    }

    public void send(int remoteRank, int tag, A values) {
        Blocking.await(inter.send(remoteRank, tag, type.encode(values)));
    }

    public A receive(int remoteRank, int tag) {
        return type.decode(Blocking.await(inter.receive(remoteRank, tag)).payload());
    }

    /** {@code values} is read at the root only and may be null elsewhere; PROC_NULL members get an empty array. */
    public A bcast(A values, int root) {
        return type.decode(Blocking.await(inter.bcast(encodeOrEmpty(values), root)));
    }

    public A scatter(A values, int countPerRank, int root) {
        return type.decode(Blocking.await(inter.scatter(encodeOrEmpty(values), type.bytes(countPerRank), root)));
    }

    public Optional<A> gather(A values, int root) {
        return Blocking.await(inter.gather(encodeOrEmpty(values), root)).map(type::decode);
    }

    public Optional<A> reduce(A values, ReduceOp op, int root) {
        return Blocking.await(inter.reduce(encodeOrEmpty(values), type.elementType(), op, root)).map(type::decode);
    }

    public A allreduce(A values, ReduceOp op) {
        return type.decode(Blocking.await(inter.allreduce(type.encode(values), type.elementType(), op)));
    }

    public A allgather(A values) {
        return type.decode(Blocking.await(inter.allgather(type.encode(values))));
    }

    public A alltoall(A values, int countPerRank) {
        return type.decode(Blocking.await(inter.alltoall(type.encode(values), type.bytes(countPerRank))));
    }

    public void barrier() {
        Blocking.await(inter.barrier());
    }

    private Buffer encodeOrEmpty(A values) {
        return values == null ? Buffer.buffer() : type.encode(values);
    }
}
