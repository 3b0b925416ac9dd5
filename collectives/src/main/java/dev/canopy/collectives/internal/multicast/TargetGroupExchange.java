package dev.canopy.collectives.internal.multicast;

import dev.canopy.multicast.internal.groups.GroupPolicy;
import io.vertx.core.Future;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The exchange that sets up and ends a group of a root and its targets ({@code dynamic} per operation,
 * {@code persistent} per request): the root leases the group, multicasts ANNOUNCE with the target set on the static
 * group and joins; each target checks the announcement against its own arguments, looks the group up, joins and
 * says READY (point-to-point). At the end each target says DONE, everyone leaves and the root releases the lease.
 */
final class TargetGroupExchange {

    private final GroupScope scope;

    TargetGroupExchange(GroupScope scope) {
        this.scope = scope;
    }

    /**
     * Sets up the group of {@code operation}: at the root and the targets it completes once every target is in
     * (the root has heard every READY); empty at the members outside it, once they have checked the announcement.
     */
    Future<Optional<GroupMember>> setUp(GroupPolicy policy, long operation, int root, int[] targets) {
        int me = scope.rank();
        int[] ranks = GroupScope.withRoot(root, targets);
        int instance = GroupScope.instanceOf(operation);
        if (me == root) {
            return scope.here(scope.groups.createTargetGroup(policy, operation)).compose(lease ->
                    scope.whole().broadcast(GroupMessage.encode(GroupMessage.ANNOUNCE, operation, targets, List.of()))
                            .compose(announced -> scope.join(instance, ranks, lease))
                            .compose(member -> readyOrLeave(member, scope.words(operation, targets, GroupMessage.READY)))
                            .onFailure(e -> scope.here(scope.groups.drop(lease))));
        }
        return scope.whole().receive(root).compose(message -> {
            GroupMessage.decode(message, GroupMessage.ANNOUNCE, operation, targets, scope.size());
            if (Arrays.binarySearch(targets, me) < 0) {
                return Future.succeededFuture(Optional.empty());
            }
            return scope.here(scope.groups.joinTargetGroup(policy, operation)).compose(lease ->
                    scope.join(instance, ranks, lease)
                            .compose(member -> readyOrLeave(member, scope.word(root, operation, GroupMessage.READY)))
                            .onFailure(e -> scope.here(scope.groups.drop(lease))));
        });
    }

    /**
     * Ends the group of {@code operation} after {@code work} on it: when the work succeeded the targets say DONE
     * and the root waits for them; then, whatever happened, this member leaves and drops the group (the root's
     * drop releases the lease). Completes with the work's outcome once dropped.
     */
    <T> Future<T> finish(long operation, int root, int[] targets, GroupMember member, Future<T> work) {
        Function<T, Future<T>> done = result -> (scope.rank() == root
                ? scope.words(operation, targets, GroupMessage.DONE)
                : scope.word(root, operation, GroupMessage.DONE)).map(agreed -> result);
        return work.compose(done).eventually(() -> {
            member.close();
            return scope.here(scope.groups.drop(member.lease()));
        });
    }

    private static Future<Optional<GroupMember>> readyOrLeave(GroupMember member, Future<Void> ready) {
        return ready.map(Optional.of(member)).onFailure(e -> member.close());
    }
}
