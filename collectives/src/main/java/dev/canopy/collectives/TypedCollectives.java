package dev.canopy.collectives;

import dev.canopy.collectives.reduce.ReduceOp;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.Optional;

/**
 * The collectives of {@link Collectives} on primitive arrays of one type; counts are in elements.
 * Obtain one with {@link Collectives#typed(ArrayType)}. It shares the communicator's sequence.
 *
 * @param <A> the array type, e.g. {@code double[]}
 */
public final class TypedCollectives<A> {

    private final Collectives collectives;
    private final ArrayType<A> type;

    TypedCollectives(Collectives collectives, ArrayType<A> type) {
        this.collectives = collectives;
        this.type = type;
    }

    /** {@code values} is read at the root only and may be null elsewhere. */
    public Future<A> bcast(A values, int root) {
        return collectives.bcast(values == null ? null : type.encode(values), root).map(type::decode);
    }

    /** Rank r gets elements {@code r*countPerRank ..} of the root's {@code values}. */
    public Future<A> scatter(A values, int countPerRank, int root) {
        return collectives.scatter(values == null ? null : type.encode(values), type.bytes(countPerRank), root)
                .map(type::decode);
    }

    public Future<A> scatterv(List<A> blocks, int root) {
        return collectives.scatterv(blocks == null ? null : blocks.stream().map(type::encode).toList(), root)
                .map(type::decode);
    }

    public Future<Optional<A>> gather(A values, int root) {
        return collectives.gather(type.encode(values), root).map(result -> result.map(type::decode));
    }

    public Future<Optional<List<A>>> gatherv(A values, int root) {
        return collectives.gatherv(type.encode(values), root).map(result -> result.map(this::decodeAll));
    }

    public Future<A> allgather(A values) {
        return collectives.allgather(type.encode(values)).map(type::decode);
    }

    public Future<List<A>> allgatherv(A values) {
        return collectives.allgatherv(type.encode(values)).map(this::decodeAll);
    }

    public Future<Optional<A>> reduce(A values, ReduceOp op, int root) {
        return collectives.reduce(type.encode(values), type.elementType(), op, root).map(result -> result.map(type::decode));
    }

    public Future<A> allreduce(A values, ReduceOp op) {
        return collectives.allreduce(type.encode(values), type.elementType(), op).map(type::decode);
    }

    public Future<A> reduceScatter(A values, ReduceOp op, int[] counts) {
        return collectives.reduceScatter(type.encode(values), type.elementType(), op, counts).map(type::decode);
    }

    public Future<A> scan(A values, ReduceOp op) {
        return collectives.scan(type.encode(values), type.elementType(), op).map(type::decode);
    }

    public Future<Optional<A>> exscan(A values, ReduceOp op) {
        return collectives.exscan(type.encode(values), type.elementType(), op).map(result -> result.map(type::decode));
    }

    public Future<A> alltoall(A values, int countPerRank) {
        return collectives.alltoall(type.encode(values), type.bytes(countPerRank)).map(type::decode);
    }

    public Future<List<A>> alltoallv(List<A> blocks) {
        return collectives.alltoallv(blocks.stream().map(type::encode).toList()).map(this::decodeAll);
    }

    private List<A> decodeAll(List<Buffer> buffers) {
        return buffers.stream().map(type::decode).toList();
    }
}
