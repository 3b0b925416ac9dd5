package dev.canopy.dynamic;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.reduce.ReduceOp;
import dev.canopy.core.comm.PointToPoint;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The inter-communicator collectives with MPI semantics, each an intra-group collective over a group's own
 * {@link Collectives} (its topology plan) plus one transfer between the groups, between the members
 * {@link Leaders} chooses. Rooted operations: in the root's group the root passes
 * {@link InterCommunicator#ROOT} and the others {@link InterCommunicator#PROC_NULL}; in the other group everyone
 * passes the root's rank in the root's group. What crosses between the groups is an {@link Outcome}, and a
 * leader that could not get the other group's data still runs its group's collective with the reason, so a
 * failure reaches every member and the groups' collectives stay in step.
 *
 * <p>Each operation is given its own tag on the channel between the groups (the inter-communicator's sequence),
 * so operations in flight never take each other's messages.
 */
final class InterCollectives {

    private final InterTable table;
    private final Leaders leaders;
    private final PointToPoint channel;
    private final Collectives local;

    InterCollectives(InterTable table, Leaders leaders, PointToPoint channel, Collectives local) {
        this.table = table;
        this.leaders = leaders;
        this.channel = channel;
        this.local = local;
    }

    Future<Buffer> bcast(Buffer data, int root, int tag) {
        return switch (role(root)) {
            case ROOT -> data == null ? refuse(tag, new IllegalArgumentException("bcast: the root passed no data"))
                    : send(remoteNearMe(), tag, Outcome.ok(data)).map(data);
            case IDLE -> Future.succeededFuture(Buffer.buffer());
            case RECEIVER -> {
                int leader = mineNear(root);
                Future<Buffer> crossed = table.localRank() == leader ? receiveOutcome(root, tag, "bcast")
                        : Future.succeededFuture(null);
                yield crossed.compose(outcome -> local.bcast(outcome, leader)).map(outcome -> Outcome.open(outcome, "bcast"));
            }
        };
    }

    /** The root's {@code data} holds {@code bytesPerRank} bytes for each rank of the other group. */
    Future<Buffer> scatter(Buffer data, int bytesPerRank, int root, int tag) {
        return switch (role(root)) {
            case ROOT -> {
                long expected = (long) bytesPerRank * table.remoteSize();
                if (data == null || bytesPerRank < 0 || data.length() != expected) {
                    yield refuse(tag, new IllegalArgumentException("scatter: the root's data has "
                            + (data == null ? "no" : String.valueOf(data.length())) + " bytes, not " + table.remoteSize()
                            + " ranks x " + bytesPerRank + " bytes"));
                }
                yield send(remoteNearMe(), tag, Outcome.ok(data)).map(Buffer.buffer());
            }
            case IDLE -> Future.succeededFuture(Buffer.buffer());
            case RECEIVER -> {
                int leader = mineNear(root);
                Future<List<Buffer>> blocks = table.localRank() != leader ? Future.succeededFuture(null)
                        : receiveOutcome(root, tag, "scatter").map(outcome -> blocksOf(outcome, bytesPerRank));
                yield blocks.compose(list -> local.scatterv(list, leader)).map(block -> Outcome.open(block, "scatter"));
            }
        };
    }

    /** The root gets every rank's {@code data} of the other group (all of one length) in rank order. */
    Future<Optional<Buffer>> gather(Buffer data, int root, int tag) {
        return switch (role(root)) {
            case ROOT -> receive(remoteNearMe(), tag).map(outcome -> Optional.of(Outcome.open(outcome, "gather")));
            case IDLE -> Future.succeededFuture(Optional.empty());
            case RECEIVER -> {
                int leader = mineNear(root);
                Future<Optional<Buffer>> gathered = local.gather(data, leader);
                yield table.localRank() != leader ? gathered.map(Optional.empty())
                        : Outcome.of(gathered.map(Optional::orElseThrow)).compose(outcome -> send(root, tag, outcome))
                                .compose(sent -> gathered).map(Optional.empty());
            }
        };
    }

    /** The root gets {@code op} over the other group's {@code data}, in its rank order. */
    Future<Optional<Buffer>> reduce(Buffer data, ElementType type, ReduceOp op, int root, int tag) {
        return switch (role(root)) {
            case ROOT -> receive(remoteNearMe(), tag).map(outcome -> Optional.of(Outcome.open(outcome, "reduce")));
            case IDLE -> Future.succeededFuture(Optional.empty());
            case RECEIVER -> {
                int leader = mineNear(root);
                Future<Optional<Buffer>> reduced = local.reduce(data, type, op, leader);
                yield table.localRank() != leader ? reduced.map(Optional.empty())
                        : Outcome.of(reduced.map(Optional::orElseThrow)).compose(outcome -> send(root, tag, outcome))
                                .compose(sent -> reduced).map(Optional.empty());
            }
        };
    }

    /** Every member gets {@code op} over the other group's {@code data}. */
    Future<Buffer> allreduce(Buffer data, ElementType type, ReduceOp op, int tag) {
        int leader = leaders.leader(table.mine());
        return crossAndBroadcast(local.reduce(data, type, op, leader), leader, tag, "allreduce");
    }

    /** Every member gets the other group's {@code data} (all of one length) concatenated in its rank order. */
    Future<Buffer> allgather(Buffer data, int tag) {
        int leader = leaders.leader(table.mine());
        return crossAndBroadcast(local.gather(data, leader), leader, tag, "allgather");
    }

    /** Completes once every member of both groups has started it. */
    Future<Void> barrier(int tag) {
        int leader = leaders.leader(table.mine());
        return crossAndBroadcast(local.gather(Buffer.buffer(), leader), leader, tag, "barrier").mapEmpty();
    }

    /**
     * Block j of {@code data} ({@code bytesPerRank} bytes) goes to rank j of the other group; the result holds, in
     * the other group's rank order, each of its ranks' block for this one. Every pair exchanges directly (the
     * blocks differ per pair, so a leader would only add a hop).
     */
    Future<Buffer> alltoall(Buffer data, int bytesPerRank, int tag) {
        int remote = table.remoteSize();
        if (bytesPerRank < 0 || data.length() != (long) bytesPerRank * remote) {
            return Future.failedFuture(new IllegalArgumentException("alltoall: the data has " + data.length()
                    + " bytes, not " + remote + " ranks x " + bytesPerRank + " bytes"));
        }
        List<Future<Buffer>> received = new ArrayList<>(remote);
        List<Future<Void>> sent = new ArrayList<>(remote);
        for (int j = 0; j < remote; j++) {
            received.add(channel.receive(table.unionOfRemote(j), tag).map(message -> {
                if (message.payload().length() != bytesPerRank) {
                    throw new InterCommunicatorException("alltoall: a rank of the other group sent "
                            + message.payload().length() + " bytes, not " + bytesPerRank + " (do both groups pass the same"
                            + " bytesPerRank?)");
                }
                return message.payload();
            }));
            sent.add(channel.send(table.unionOfRemote(j), tag, data.slice(j * bytesPerRank, (j + 1) * bytesPerRank)));
        }
        return Future.all(sent).compose(s -> Future.all(received)).map(all -> {
            Buffer result = Buffer.buffer(remote * bytesPerRank);
            received.forEach(block -> result.appendBuffer(block.result()));
            return result;
        });
    }

    /**
     * The leaders exchange what their groups gathered or reduced ({@code mine} completes with it at the leader,
     * empty elsewhere), then each broadcasts the other's in its group.
     */
    private Future<Buffer> crossAndBroadcast(Future<Optional<Buffer>> mine, int leader, int tag, String what) {
        int otherLeader = leaders.leader(table.mine().other());
        Future<Buffer> crossed;
        if (table.localRank() == leader) {
            Future<Buffer> theirs = receiveOutcome(otherLeader, tag, what);
            Future<Void> sent = Outcome.of(mine.map(Optional::orElseThrow)).compose(outcome -> send(otherLeader, tag, outcome));
            crossed = sent.transform(done -> done.succeeded() ? theirs : Future.succeededFuture(Outcome.failed(
                    new InterCommunicatorException(what + ": cannot send to the other group's leader: "
                            + done.cause().getMessage(), done.cause()))));
        } else {
            crossed = mine.transform(r -> Future.succeededFuture(null));
        }
        return crossed.compose(outcome -> local.bcast(outcome, leader)).map(outcome -> Outcome.open(outcome, what));
    }

    /** The root's bad input: the other group's leader is told why (so its group fails too), then the root fails. */
    private <T> Future<T> refuse(int tag, IllegalArgumentException why) {
        return send(remoteNearMe(), tag, Outcome.failed(why)).transform(told -> Future.failedFuture(why));
    }

    /** What {@code remoteRank} sent as it came, or the failure to get it as a FAILED outcome: never a failed future. */
    private Future<Buffer> receiveOutcome(int remoteRank, int tag, String what) {
        return receive(remoteRank, tag).otherwise(e -> Outcome.failed(new InterCommunicatorException(what
                + ": nothing came from rank " + remoteRank + " of the other group: " + e.getMessage(), e)));
    }

    private enum Role { ROOT, IDLE, RECEIVER }

    private Role role(int root) {
        if (root == InterCommunicator.ROOT) {
            return Role.ROOT;
        }
        if (root == InterCommunicator.PROC_NULL) {
            return Role.IDLE;
        }
        if (root < 0 || root >= table.remoteSize()) {
            throw new IllegalArgumentException("root " + root + " is neither ROOT, PROC_NULL nor a rank of the other group"
                    + " (0.." + (table.remoteSize() - 1) + "): in the root's group pass ROOT at the root and PROC_NULL"
                    + " elsewhere, in the other group the root's rank");
        }
        return Role.RECEIVER;
    }

    /** The other group's member nearest to this member (the root). */
    private int remoteNearMe() {
        return leaders.nearest(table.mine().other(), table.mine(), table.localRank());
    }

    /** This group's member nearest to the other group's {@code root}. */
    private int mineNear(int root) {
        return leaders.nearest(table.mine(), table.mine().other(), root);
    }

    private Future<Void> send(int remoteRank, int tag, Buffer payload) {
        return channel.send(table.unionOfRemote(remoteRank), tag, payload);
    }

    private Future<Buffer> receive(int remoteRank, int tag) {
        return channel.receive(table.unionOfRemote(remoteRank), tag).map(message -> message.payload());
    }

    /** A scatter's blocks for the group's scatterv: each OK with its bytes, or all FAILED with the reason. */
    private List<Buffer> blocksOf(Buffer outcome, int bytesPerRank) {
        int ranks = table.localSize();
        Buffer data;
        try {
            data = Outcome.open(outcome, "scatter");
            if (data.length() != (long) bytesPerRank * ranks) {
                throw new InterCommunicatorException("scatter: the root sent " + data.length() + " bytes, not " + ranks
                        + " ranks x " + bytesPerRank + " bytes (do both groups pass the same bytesPerRank?)");
            }
        } catch (InterCommunicatorException e) {
            return Collections.nCopies(ranks, Outcome.failed(e));
        }
        List<Buffer> blocks = new ArrayList<>(ranks);
        for (int r = 0; r < ranks; r++) {
            blocks.add(Outcome.ok(data.slice(r * bytesPerRank, (r + 1) * bytesPerRank)));
        }
        return blocks;
    }
}
