package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.collectives.data.ValueCodec;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The {@code static} policy: everything on the communicator's one group. A one-to-many operation is one multicast of
 * the targets' pieces to every member (the others check and discard them); scatterv's counts travel the same way;
 * an allgather is one multicast per member.
 */
final class StaticPolicy {

    private final GroupScope scope;

    StaticPolicy(GroupScope scope) {
        this.scope = scope;
    }

    Future<Optional<Buffer>> oneToMany(long operation, int root, int[] targets, List<Buffer> pieces) {
        GroupMember whole = scope.whole();
        if (scope.rank() == root) {
            return whole.broadcast(GroupMessage.encode(GroupMessage.DATA, operation, targets, pieces))
                    .map(sent -> Optional.empty());
        }
        return whole.receive(root).map(message -> scope.pieceFor(GroupMessage.decode(message, GroupMessage.DATA,
                operation, targets, scope.size())));
    }

    /** scatterv's first multicast: the root's counts, to every member. */
    Future<int[]> counts(long operation, int root, int[] targets, List<Buffer> pieces) {
        GroupMember whole = scope.whole();
        if (scope.rank() == root) {
            int[] counts = pieces.stream().mapToInt(Buffer::length).toArray();
            return whole.broadcast(GroupMessage.encode(GroupMessage.DATA, operation, targets,
                    List.of(ValueCodec.encode(counts)))).map(sent -> counts);
        }
        return whole.receive(root).map(message -> {
            Buffer counts = GroupMessage.decode(message, GroupMessage.DATA, operation, targets, scope.size())
                    .pieces().get(0);
            if (counts.length() != 4 * targets.length) {
                throw new MalformedMessageException("scatterv counts of operation " + operation + ": " + counts.length()
                        + " bytes for " + targets.length + " targets");
            }
            int[] values = ValueCodec.ints(counts);
            if (Arrays.stream(values).anyMatch(count -> count < 0)) {
                throw new MalformedMessageException("scatterv counts of operation " + operation + " hold a negative count: "
                        + Arrays.toString(values));
            }
            return values;
        });
    }

    /** Every member multicasts its {@code data} once; by rank. */
    Future<List<Buffer>> allgather(long operation, Buffer data) {
        GroupMember whole = scope.whole();
        int me = scope.rank();
        List<Future<Buffer>> received = new ArrayList<>();
        for (int rank = 0; rank < scope.size(); rank++) {
            received.add(rank == me ? whole.broadcast(GroupMessage.encode(GroupMessage.DATA, operation, new int[0],
                    List.of(data))).map(sent -> data)
                    : whole.receive(rank).map(message -> checkLength(GroupMessage.decode(message, GroupMessage.DATA,
                            operation, new int[0], scope.size()).pieces().get(0), data.length(), operation)));
        }
        return Future.all(received).map(all -> {
            List<Buffer> pieces = new ArrayList<>();
            received.forEach(piece -> pieces.add(piece.result()));
            return Collections.unmodifiableList(pieces);
        });
    }

    static Buffer checkLength(Buffer piece, int expected, long operation) {
        if (piece.length() != expected) {
            throw new MalformedMessageException("allgather of operation " + operation + ": a piece of " + piece.length()
                    + " bytes, every member gives " + expected);
        }
        return piece;
    }
}
