package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A persistent one-to-many scatter, scatterv or bcast of {@link GroupCollectives} ({@code scatterInit},
 * {@code scattervInit}, {@code bcastInit}) in
 * MPI-4 form: its group of the root and the targets was set up once at init (leased, announced, joined), and each
 * {@link #start} is one multicast on it of the targets' pieces (sizes fixed at init), or, when the request runs
 * point-to-point ({@code tree}), one send per target. {@link #close} is collective too: the targets tell the root
 * they are done, everyone leaves the group and the root releases its lease.
 *
 * <p>Every member starts the request in the same place of its sequence of the communicator's group operations, and
 * completes its last start before closing.
 */
public final class GroupRequest implements AutoCloseable {

    private final GroupScope scope;
    private final PersistentRequests requests;
    private final long operation;
    private final int root;
    private final int[] targets;
    private final int[] counts;
    private final boolean shared;
    private final GroupPolicy policy;
    private final Optional<GroupMember> member;
    private final long totalBytes;
    private final AtomicBoolean closed = new AtomicBoolean();

    private GroupRequest(GroupScope scope, PersistentRequests requests, long operation, int root, int[] targets, int[] counts, boolean shared,
            GroupPolicy policy, Optional<GroupMember> member) {
        this.scope = scope;
        this.requests = requests;
        this.operation = operation;
        this.root = root;
        this.targets = targets;
        this.counts = counts;
        this.shared = shared;
        this.policy = policy;
        this.member = member;
        this.totalBytes = Arrays.stream(counts).asLongStream().sum();
    }

    static GroupRequest oneToMany(GroupScope scope, PersistentRequests requests, long operation, int root,
            int[] targets, int[] counts, boolean shared, GroupPolicy policy, Optional<GroupMember> member) {
        return new GroupRequest(scope, requests, operation, root, targets.clone(), counts, shared, policy, member);
    }

    /** {@code persistent} (one multicast per start) or {@code tree} (point-to-point sends). */
    public GroupPolicy policy() {
        return policy;
    }

    /**
     * Starts once more: {@code data} at the root (the bcast's bytes, or the targets' pieces back to back in target
     * order), ignored elsewhere. A target's future completes with its piece, every other member's at once with empty
     * (the root's once its data is on its way).
     */
    public Future<Optional<Buffer>> start(Buffer data) {
        if (closed.get()) {
            throw new IllegalStateException(this + " was closed; init a new request to start it again");
        }
        int me = scope.rank();
        if (me == root && (data == null || data.length() != totalBytes)) {
            throw new IllegalArgumentException(this + " carries " + totalBytes + " bytes per start; the root gave "
                    + (data == null ? "none" : data.length()));
        }
        boolean target = Arrays.binarySearch(targets, me) >= 0;
        if (me != root && !target) {
            return Future.succeededFuture(Optional.empty());
        }
        return scope.onContext(() -> {
            if (policy == GroupPolicy.TREE) {
                return me == root ? sendPieces(data) : scope.receivePiece(root, operation).map(this::checked);
            }
            GroupMember group = member.orElseThrow();
            if (me == root) {
                return group.broadcast(GroupMessage.encode(GroupMessage.DATA, operation, targets, pieces(data)))
                        .map(sent -> Optional.<Buffer>empty());
            }
            return group.receive(root).map(message -> checked(GroupMessage.decode(message, GroupMessage.DATA, operation,
                    targets, scope.size()).pieceOf(me)));
        });
    }

    /** {@link #start(Buffer)} at a member other than the root. */
    public Future<Optional<Buffer>> start() {
        return start(null);
    }

    /** No more starts; the group is left and released (collective). Idempotent. */
    @Override
    public void close() {
        closeAsync();
    }

    /** {@link #close}, completing once this member left the group (and, at the root, released it). */
    public Future<Void> closeAsync() {
        if (closed.getAndSet(true) || member.isEmpty()) {
            return Future.succeededFuture();
        }
        return requests.close(operation, root, targets, member.get());
    }

    @Override
    public String toString() {
        return "persistent " + (shared ? "bcast" : "scatter") + " from root " + root + " to " + targets.length
                + " target(s) (" + policy.configName() + ")";
    }

    private Future<Optional<Buffer>> sendPieces(Buffer data) {
        List<Buffer> pieces = pieces(data);
        List<Future<Void>> sends = new ArrayList<>();
        for (int i = 0; i < targets.length; i++) {
            sends.add(scope.sendPiece(targets[i], operation, shared ? pieces.get(0) : pieces.get(i)));
        }
        return Future.all(sends).map(sent -> Optional.empty());
    }

    /** Views of the root's data (the message's encoding copies them once, as a static call's does). */
    private List<Buffer> pieces(Buffer data) {
        List<Buffer> pieces = new ArrayList<>(counts.length);
        int offset = 0;
        for (int count : counts) {
            pieces.add(data.slice(offset, offset + count));
            offset += count;
        }
        return pieces;
    }

    private Optional<Buffer> checked(Buffer piece) {
        int expected = shared ? counts[0] : counts[Arrays.binarySearch(targets, scope.rank())];
        if (piece.length() != expected) {
            throw new MalformedMessageException(this + ": received a piece of " + piece.length() + " bytes, the request"
                    + " carries " + expected);
        }
        return Optional.of(piece);
    }
}
