package dev.canopy.core.comm;

import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.Level;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * A group of ranks with its own message context, MPI style. Ranks are {@code 0 .. size()-1} in
 * {@link Member#RANK_ORDER} of the members (or the split key order for split communicators).
 *
 * <p>Point-to-point messages are FIFO per (source, tag). A send to a rank whose node has left or
 * failed fails with {@link RankFailedException} as soon as membership reports it; a receive from it
 * (or from any source) fails once the frames that node sent before leaving have all arrived, or at
 * the latest {@code NodeOptions.departureGrace} later; nothing hangs. All state of a communicator is owned by {@link #context()}; methods may be called
 * from any thread and complete their futures on that context.
 */
public interface Communicator extends PointToPoint {

    /** Receive from any source. */
    int ANY_SOURCE = -1;
    /** Receive with any tag. */
    int ANY_TAG = -1;
    /** The color that leaves a caller out of a split; its future completes with {@code null}. */
    int UNDEFINED = -1;

    @Override
    int rank();

    @Override
    int size();

    /** The agreed context id: equal on every member, distinct from every other live communicator's. */
    int contextId();

    /** The member holding {@code rank} in this communicator. */
    Member member(int rank);

    /** All members, indexed by rank. */
    List<Member> members();

    /**
     * Sends to {@code destination}. A payload of at most the eager limit ({@link MessageLimits}) goes
     * at once when the receiver's credit allows, and the future completes when it has been written;
     * larger ones (or any, when credit is short) are announced, and the future completes once the
     * receiver has matched a receive and the body has been written. When the receiver holds as much
     * unreceived data of this node as it allows, the future waits: that is the back-pressure. Do not
     * modify {@code payload} before the future completes.
     */
    @Override
    Future<Void> send(int destination, int tag, Buffer payload);

    /** Receives the next message from {@code source} with {@code tag} ({@link #ANY_SOURCE}, {@link #ANY_TAG} allowed). */
    @Override
    Future<Message> receive(int source, int tag);

    /**
     * The channel for collective traffic: same ranks and semantics, separate context, so collective
     * messages never match user receives.
     */
    PointToPoint collectiveChannel();

    /**
     * Collective over this communicator: members with the same {@code color} form a new communicator,
     * ranked by {@code key} then by parent rank. A caller passing {@link #UNDEFINED} gets {@code null}.
     */
    Future<Communicator> split(int color, int key);

    /** Collective: members sharing {@code coordinates().groupKey(level)} form a new communicator. */
    Future<Communicator> splitByLevel(Level level);

    /**
     * Collective over the surviving members: a new communicator without the failed ranks, agreed ranks.
     * The survivors agree on who they are through ZooKeeper, so every survivor gets the same communicator
     * even when members fail during the shrink. Works on a revoked communicator.
     */
    Future<Communicator> shrink();

    /**
     * Collective: releases this communicator's context id, channels and queues on every member. Its
     * pending and later operations fail with {@link IllegalStateException}; unreceived messages are
     * discarded (their senders get their credit back). Completes once every live member has freed it,
     * when no frame of it can still arrive, so its id can be reused by a later split or shrink. WORLD
     * cannot be freed.
     */
    Future<Void> free();

    /**
     * Revokes this communicator, ULFM style: every pending and later send, receive and collective on it fails
     * with {@link CommunicatorRevokedException}, here and, as soon as the notice arrives, on every other member,
     * so all survivors leave a broken operation at once. Call it when an operation failed on some members
     * only; then {@link #agree} and {@link #shrink()} (which still work) lead to a communicator of the survivors.
     * Completes once revoked locally; idempotent.
     */
    Future<Void> revoke();

    /** Whether this communicator has been revoked, here or by another member. */
    boolean isRevoked();

    /**
     * Fault-tolerant agreement among the surviving members: completes with the same value on every member that
     * completes it, the AND of the flags of the members that took part, even when members (any of them) fail
     * during it. Members that failed before contributing are left out. Collective: call it in the same order
     * on every member. Works on a revoked communicator. Decided through ZooKeeper (see docs/core.md).
     */
    Future<Boolean> agree(boolean flag);

    /** The event-loop context that owns this communicator's state. */
    Context context();
}
