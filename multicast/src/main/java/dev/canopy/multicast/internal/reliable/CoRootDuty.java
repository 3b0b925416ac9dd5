package dev.canopy.multicast.internal.reliable;

import dev.canopy.multicast.internal.loop.OwnerLoop;
import java.nio.ByteBuffer;

/**
 * What a co-root does for one root's stream besides receiving it: pass every packet on, reliably, to
 * its children in the binomial tree of sub-group heads (on the first copy it gets, multicast or
 * reliable), keep the packets its leaves may still need in its own window, collect their ACKs and
 * credits (its leaves acknowledge to it, never to the root), and retransmit to exactly the leaf whose
 * ACK is missing. Its window never blocks: when it is full the oldest packet is retransmitted at once
 * to the leaves that lack it, as a timeout would. Owner loop only.
 */
final class CoRootDuty {

    private final Substrate substrate;
    private final int[] forwardChildren;
    private final LeafWindow window;
    private final CreditLedger leafCredits;
    private final BatchedRetransmitter retransmitter;
    private OwnerLoop.Timer retransmitTimer;
    private boolean failed;

    CoRootDuty(Substrate substrate, CoRootLayout layout) {
        this.substrate = substrate;
        int[] leaves = layout.leavesOf(substrate.rank);
        this.forwardChildren = layout.forwardChildrenOf(substrate.rank);
        this.window = new LeafWindow(substrate.options.window(), substrate.fabric.mtu(), leaves,
                new RetransmitTimeout(substrate.retransmitNanos));
        this.leafCredits = new CreditLedger(leaves, substrate.options.creditsPerRoot());
        this.retransmitter = new BatchedRetransmitter(substrate, window, layout.root());
    }

    /** The first copy of a packet arrived here: pass it down the tree of heads. */
    void forward(ByteBuffer packet) {
        for (int child : forwardChildren) {
            substrate.sendReliably(child, packet);
            substrate.counters.forwards++;
        }
    }

    /** A packet was received in order: hold it until every leaf has it. */
    void hold(ByteBuffer packet) {
        if (failed) {
            return;
        }
        while (window.isFull()) { // the oldest packets may be smaller than this one: free until it fits
            int sent = window.retransmitHead(retransmitter);
            substrate.counters.retransmissions += sent;
            substrate.counters.forcedRetransmissions += sent;
        }
        window.add(packet);
        window.markSent(substrate.loop.nanoTime());
        window.releaseCovered();
        armTimer();
    }

    /** FEEDBACK from a leaf; false when {@code from} is not a leaf of this co-root. */
    boolean leafFeedback(int from, long ackedUpTo, long creditLimit) {
        if (!leafCredits.update(from, creditLimit)) {
            return false;
        }
        window.acknowledged(from, ackedUpTo, substrate.loop.nanoTime());
        window.releaseCovered();
        return true;
    }

    /** Sends {@code leaf} the packets it asked for (NAK) that this co-root holds, at once. */
    void repair(int leaf, long missingUpTo) {
        if (!failed) {
            substrate.counters.retransmissions += window.repair(leaf, missingUpTo, retransmitter);
            window.releaseCovered();
        }
    }

    /** The lowest credit limit among the leaves. */
    long leafCreditLimit() {
        return leafCredits.limit();
    }

    int windowInUse() {
        return window.inUse();
    }

    void fail() {
        failed = true;
        window.clear();
        if (retransmitTimer != null) {
            retransmitTimer.cancel();
            retransmitTimer = null;
        }
    }

    private void armTimer() {
        long deadline = window.nextDeadline();
        if (retransmitTimer == null && deadline != Long.MAX_VALUE) {
            retransmitTimer = substrate.loop.schedule(Math.max(0, deadline - substrate.loop.nanoTime()), this::onTimer);
        }
    }

    private void onTimer() {
        retransmitTimer = null;
        if (failed) {
            return;
        }
        substrate.counters.retransmissions += window.expire(substrate.loop.nanoTime(), retransmitter);
        armTimer();
    }
}
