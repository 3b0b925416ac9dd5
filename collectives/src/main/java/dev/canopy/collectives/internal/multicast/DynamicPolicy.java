package dev.canopy.collectives.internal.multicast;

import dev.canopy.multicast.internal.groups.GroupPolicy;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.Optional;

/**
 * The {@code dynamic} policy: per operation a group of the root and the targets is set up
 * ({@link TargetGroupExchange}), the data moves in one multicast on it, and the group is dropped. The root's call
 * returns after the release, a target's once it has its piece and said DONE.
 */
final class DynamicPolicy {

    private final GroupScope scope;
    private final TargetGroupExchange exchange;

    DynamicPolicy(GroupScope scope, TargetGroupExchange exchange) {
        this.scope = scope;
        this.exchange = exchange;
    }

    Future<Optional<Buffer>> oneToMany(long operation, int root, int[] targets, List<Buffer> pieces) {
        return exchange.setUp(GroupPolicy.DYNAMIC, operation, root, targets).compose(group -> {
            if (group.isEmpty()) {
                return Future.succeededFuture(Optional.empty());
            }
            GroupMember member = group.get();
            Future<Optional<Buffer>> moved = scope.rank() == root
                    ? member.broadcast(GroupMessage.encode(GroupMessage.DATA, operation, targets, pieces))
                            .map(sent -> Optional.empty())
                    : member.receive(root).map(data -> scope.pieceFor(GroupMessage.decode(data, GroupMessage.DATA,
                            operation, targets, scope.size())));
            return exchange.finish(operation, root, targets, member, moved);
        });
    }
}
