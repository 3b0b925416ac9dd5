package dev.canopy.core.comm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;

/**
 * The sending side of {@link FlowProtocol} towards one node: the credit it granted, and the sends
 * that wait for credit, in send order (a later send never overtakes a waiting one, so FIFO per
 * (source, tag) holds whichever way each message goes).
 *
 * <p>Confined to the runtime's context.
 */
final class OutboundWindow {

    enum Mode {
        EAGER,
        RENDEZVOUS
    }

    /** Why waiting sends fail. */
    enum Failure {
        /** Membership reported the receiver gone. */
        DEPARTED,
        /** The receiver rejected this node's frames. */
        REJECTED,
        /** This node's runtime closed (it left, or its session expired). */
        CLOSED
    }

    /** A send to this window's node, started once its credit allows. */
    interface PendingSend {
        int size();

        void start(Mode mode);

        void fail(Failure failure, String reason);
    }

    private final int eagerLimit;
    private final ArrayDeque<PendingSend> waiting = new ArrayDeque<>();
    private long credit = FlowProtocol.INITIAL_CREDIT;
    private Failure failure;
    private String failureReason;

    OutboundWindow(int eagerLimit) {
        this.eagerLimit = eagerLimit;
    }

    /** Starts {@code send} now when credit allows and nothing waits before it; otherwise queues it. */
    void submit(PendingSend send) {
        if (failure != null) {
            send.fail(failure, failureReason);
            return;
        }
        waiting.addLast(send);
        drain();
    }

    /** The receiver gave {@code bytes} of credit (back). */
    void grant(long bytes) {
        credit += bytes;
        drain();
    }

    /** Waiting and later sends fail (the node is gone or rejects this one). */
    void fail(Failure why, String reason) {
        if (failure == null) {
            failure = why;
            failureReason = reason;
        }
        List<PendingSend> failed = new ArrayList<>(waiting);
        waiting.clear();
        failed.forEach(send -> send.fail(why, reason));
    }

    /** Removes the waiting sends {@code which} selects (their communicator is freed) and returns them. */
    List<PendingSend> withdraw(Predicate<PendingSend> which) {
        List<PendingSend> withdrawn = new ArrayList<>();
        for (Iterator<PendingSend> it = waiting.iterator(); it.hasNext(); ) {
            PendingSend send = it.next();
            if (which.test(send)) {
                it.remove();
                withdrawn.add(send);
            }
        }
        drain();
        return withdrawn;
    }

    long credit() {
        return credit;
    }

    int waitingSends() {
        return waiting.size();
    }

    private void drain() {
        while (!waiting.isEmpty()) {
            PendingSend head = waiting.peekFirst();
            Mode mode = affordable(head.size());
            if (mode == null) {
                return;
            }
            waiting.pollFirst();
            credit -= mode == Mode.EAGER ? FlowProtocol.eagerCost(head.size()) : FlowProtocol.ENVELOPE_COST;
            head.start(mode);
        }
    }

    private Mode affordable(int size) {
        if (size <= eagerLimit && credit - FlowProtocol.eagerCost(size) >= FlowProtocol.RENDEZVOUS_RESERVE) {
            return Mode.EAGER;
        }
        return credit >= FlowProtocol.ENVELOPE_COST ? Mode.RENDEZVOUS : null;
    }
}
