package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.Collectives;
import dev.canopy.core.comm.Communicator;
import dev.canopy.multicast.internal.groups.CommunicatorGroups;
import dev.canopy.multicast.internal.groups.GroupLease;
import dev.canopy.multicast.internal.reliable.MulticastOptions;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the policies of one communicator's {@link GroupCollectives} share: the communicator and its context, its
 * groups' leases ({@link CommunicatorGroups}), where new group endpoints come from, the substrate links, the static
 * group once joined, and the point-to-point words of an operation (READY, DONE, PIECE) on a tag of their own.
 */
final class GroupScope {

    /** The static group's instance on the communicator's {@link GroupLinks}; target groups take 2 and up. */
    static final int STATIC_INSTANCE = 1;
    /** Point-to-point words of an operation: one tag per operation, above the collectives' tags. */
    private static final int CONTROL_TAGS = 0x5000_0000;
    private static final int CONTROL_TAG_MASK = 0x0FFF_FFFF;

    final Collectives collectives;
    final Communicator communicator;
    final Context context;
    final CommunicatorGroups groups;
    private final GroupEndpoints endpoints;
    private final MulticastOptions options;
    final GroupLinks links;
    private GroupMember whole; // the static group; context only

    GroupScope(Collectives collectives, CommunicatorGroups groups, GroupEndpoints endpoints, MulticastOptions options) {
        this.collectives = collectives;
        this.communicator = collectives.communicator();
        this.context = communicator.context();
        this.groups = groups;
        this.endpoints = endpoints;
        this.options = options;
        this.links = new GroupLinks(communicator);
    }

    /** Opens the static group (the first member leases it, the others find it) and joins it. */
    Future<Void> joinStaticGroup() {
        return here(groups.communicatorGroup())
                .compose(lease -> join(STATIC_INSTANCE, everyone(communicator.size()), lease))
                .map(member -> {
                    whole = member;
                    return null;
                });
    }

    /** The static group, every member of the communicator; fails once closed. */
    GroupMember whole() {
        if (whole == null) {
            throw new IllegalStateException("the multicast groups of this communicator are closed");
        }
        return whole;
    }

    boolean open() {
        return whole != null;
    }

    /** Leaves the static group and every link (the leases go with {@code groups.close()}). */
    void leave() {
        if (whole != null) {
            whole.close();
            whole = null;
        }
        links.close();
    }

    /** Joins group {@code instance} among {@code ranks} on {@code lease} with a new endpoint of this member. */
    Future<GroupMember> join(int instance, int[] ranks, GroupLease lease) {
        return GroupMember.join(communicator, instance, ranks, lease, endpoints.open(communicator), links, options);
    }

    int rank() {
        return communicator.rank();
    }

    int size() {
        return communicator.size();
    }

    /** {@code elsewhere} (completing on the allocator's context) continued on this communicator's context. */
    <T> Future<T> here(Future<T> elsewhere) {
        Promise<T> result = Promise.promise();
        elsewhere.onComplete(outcome -> context.runOnContext(ignored -> result.handle(outcome)));
        return result.future();
    }

    /** Runs {@code body} on the context. */
    <T> Future<T> onContext(Supplier<Future<T>> body) {
        Promise<T> result = Promise.promise();
        context.runOnContext(ignored -> {
            try {
                body.get().onComplete(result);
            } catch (RuntimeException e) {
                result.fail(e);
            }
        });
        return result.future();
    }

    /** This member's piece of a message of the targets' pieces, empty if it is no target. */
    Optional<Buffer> pieceFor(GroupMessage.Decoded message) {
        return Arrays.binarySearch(message.targets(), rank()) >= 0
                ? Optional.of(message.pieceOf(rank())) : Optional.empty();
    }

    /** Waits for the word {@code kind} of {@code operation} from every target. */
    Future<Void> words(long operation, int[] targets, byte kind) {
        List<Future<Void>> words = new ArrayList<>();
        for (int target : targets) {
            words.add(communicator.collectiveChannel().receive(target, controlTag(operation)).map(message -> {
                GroupMessage.decode(message.payload(), kind, operation, new int[0], size());
                return null;
            }));
        }
        return Future.all(words).mapEmpty();
    }

    /** Sends the word {@code kind} of {@code operation} to {@code destination}. */
    Future<Void> word(int destination, long operation, byte kind) {
        return send(destination, operation, GroupMessage.word(kind, operation));
    }

    /** One piece of {@code operation} point-to-point. */
    Future<Void> sendPiece(int target, long operation, Buffer piece) {
        return send(target, operation, GroupMessage.encode(GroupMessage.PIECE, operation, new int[0], List.of(piece)));
    }

    Future<Buffer> receivePiece(int root, long operation) {
        return communicator.collectiveChannel().receive(root, controlTag(operation)).map(message ->
                GroupMessage.decode(message.payload(), GroupMessage.PIECE, operation, new int[0], size())
                        .pieces().get(0));
    }

    private Future<Void> send(int destination, long operation, Buffer message) {
        return communicator.collectiveChannel().send(destination, controlTag(operation), message);
    }

    static int controlTag(long operation) {
        return CONTROL_TAGS | (int) (operation & CONTROL_TAG_MASK);
    }

    /** The links' instance of the target group of {@code operation}. */
    static int instanceOf(long operation) {
        return 2 + (int) (operation & 0x3FFF_FFFF);
    }

    static int[] withRoot(int root, int[] targets) {
        int[] ranks = Arrays.copyOf(targets, targets.length + 1);
        ranks[targets.length] = root;
        Arrays.sort(ranks);
        return ranks;
    }

    private static int[] everyone(int size) {
        int[] ranks = new int[size];
        Arrays.setAll(ranks, rank -> rank);
        return ranks;
    }
}
