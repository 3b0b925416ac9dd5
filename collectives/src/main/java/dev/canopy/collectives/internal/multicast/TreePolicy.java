package dev.canopy.collectives.internal.multicast;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The {@code tree} policy: no group. The root sends each target its piece point-to-point; an allgather is the
 * communicator's point-to-point allgather.
 */
final class TreePolicy {

    private final GroupScope scope;

    TreePolicy(GroupScope scope) {
        this.scope = scope;
    }

    /** {@code pieces}: one per target, or one for all (a bcast). */
    Future<Optional<Buffer>> oneToMany(long operation, int root, int[] targets, List<Buffer> pieces) {
        int me = scope.rank();
        if (me == root) {
            List<Future<Void>> sends = new ArrayList<>();
            for (int i = 0; i < targets.length; i++) {
                sends.add(scope.sendPiece(targets[i], operation, pieces.size() == 1 ? pieces.get(0) : pieces.get(i)));
            }
            return Future.all(sends).map(sent -> Optional.empty());
        }
        if (Arrays.binarySearch(targets, me) < 0) {
            return Future.succeededFuture(Optional.empty());
        }
        return scope.receivePiece(root, operation).map(Optional::of);
    }

    Future<List<Buffer>> allgather(long operation, Buffer data) {
        return scope.collectives.allgatherv(data).map(all -> {
            all.forEach(piece -> StaticPolicy.checkLength(piece, data.length(), operation));
            return all;
        });
    }
}
