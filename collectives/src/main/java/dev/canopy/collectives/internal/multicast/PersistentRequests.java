package dev.canopy.collectives.internal.multicast;

import dev.canopy.multicast.internal.groups.GroupPolicy;
import io.vertx.core.Future;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The persistent one-to-many requests of one communicator ({@code scatterInit}, {@code scattervInit},
 * {@code bcastInit}): each request's group is set up once at init by the {@link TargetGroupExchange} and ended at
 * the request's close; the groups of requests the program never closed are left when the communicator's groups
 * close. Context only.
 */
final class PersistentRequests {

    private final GroupScope scope;
    private final TargetGroupExchange exchange;
    private final Set<GroupMember> open = new HashSet<>();

    PersistentRequests(GroupScope scope, TargetGroupExchange exchange) {
        this.scope = scope;
        this.exchange = exchange;
    }

    /** A request of {@code operation} by {@code policy} ({@code persistent} or {@code tree}); collective. */
    Future<GroupRequest> init(long operation, int root, int[] targets, int[] counts, boolean shared, GroupPolicy policy) {
        if (policy == GroupPolicy.TREE) {
            return Future.succeededFuture(GroupRequest.oneToMany(scope, this, operation, root, targets, counts, shared,
                    GroupPolicy.TREE, Optional.empty()));
        }
        return exchange.setUp(GroupPolicy.PERSISTENT, operation, root, targets).map(member -> {
            member.ifPresent(open::add);
            return GroupRequest.oneToMany(scope, this, operation, root, targets, counts, shared, GroupPolicy.PERSISTENT,
                    member);
        });
    }

    /** Ends a request's group: targets say DONE, the root waits for them, everyone leaves and drops. */
    Future<Void> close(long operation, int root, int[] targets, GroupMember member) {
        return scope.onContext(() -> {
            open.remove(member);
            return exchange.finish(operation, root, targets, member, Future.<Void>succeededFuture());
        });
    }

    /** Leaves the groups of requests still open (their leases go with the communicator's groups). */
    void leaveAll() {
        open.forEach(GroupMember::close);
        open.clear();
    }
}
