package dev.canopy.multicast.internal.reliable;

import dev.canopy.multicast.internal.loop.OwnerLoop;

/**
 * When a receiver tells its parent (its sub-group's head; a co-root's parent is the root) how far it
 * got and how many packets it can take. The design note's lazy ACK, skewed among the receivers so that their reports
 * do not reach the parent together:
 * <ul>
 *   <li>every M messages: receiver i acknowledges message B of a root's stream (counted from 0) when B mod M == i mod
 *   M, at the message's last packet. Messages, not packets: a 64 KiB message is 37 to 46 packets, and an ACK point
 *   every M packets made each receiver report 5 or 6 times per message (58 reports at a 16-member root per
 *   64 KiB bcast over udp, measured 2026-11-28);</li>
 *   <li>every window fraction: when its credit limit grew by half of its buffers since its last report ({@link
 *   #creditStep}), so that a message longer than the credits still flows; receiver i's first such point comes
 *   (i mod M) / M of a step early, which keeps the receivers' credit reports apart from then on;</li>
 *   <li>otherwise once the stream has been quiet for the ACK delay (no packet since), one explicit message
 *   acknowledging everything since: the tail of a stream. A stream that trickles (a packet every millisecond, as
 *   over udp with 16 member processes on 2 cores) is reported at the points above; when the delay counted from the
 *   first unreported packet, as before 2026-11-28, such a stream drew a report every packet or two from every
 *   receiver (60 to 70 at a 16-member root per 64 KiB bcast).</li>
 * </ul>
 * The first two are sent at the end of the batch of packets being handled ({@link Substrate#flushFeedback}: packets
 * that arrived together, or one link message), so that several points passed in one batch make one report. The
 * delay's timer is not cancelled by the reports that beat it: armed once, it finds on firing whether progress is
 * still unreported and how long ago the last came, and sends or waits the rest of the delay (one timer per delay
 * while a stream flows, instead of one scheduled and cancelled per report: on Vert.x each is a scheduled task). A
 * leaf that sees a later packet before the one it expects reports at once with a NAK asking for the missing ones
 * (fast repair, instead of waiting for the parent's retransmission timeout), once per hole. Owner loop only.
 */
final class FeedbackSender {

    /** Where the values of a delayed report come from. */
    interface Progress {

        /** Every packet below this one has been received in order. */
        long ackedUpTo();

        /** The parent may send packets below this one. */
        long creditLimit();
    }

    private final Substrate substrate;
    private final int root;
    private final int parent;
    private final Progress progress;
    private final long creditStep;
    private long ackedSent;
    private long creditSent;
    private long nakSent = -1;
    private boolean due; // a report is owed at the end of the current batch
    private long lastUnreported = -1; // loop time of the latest progress not reported yet; -1: none
    private OwnerLoop.Timer timer;

    FeedbackSender(Substrate substrate, int root, int parent, Progress progress) {
        this.substrate = substrate;
        this.root = root;
        this.parent = parent;
        this.progress = progress;
        int m = substrate.options.ackEvery();
        this.creditStep = Math.max(1, substrate.options.creditsPerRoot() / 2);
        // As if the last credit report had gone out (i mod M) / M of a step before the start: the skew.
        this.creditSent = substrate.options.creditsPerRoot() - creditStep * (substrate.rank % m) / m;
    }

    /** True when this receiver acknowledges message {@code message} of the root's stream (from 0) at once. */
    boolean isAckPoint(long message) {
        int m = substrate.options.ackEvery();
        return message % m == substrate.rank % m;
    }

    /** Progress was made: report at the end of the batch when {@code ackPoint}, or after the delay. */
    void progress(long ackedUpTo, long creditLimit, boolean ackPoint) {
        if (due || (ackedUpTo <= ackedSent && creditLimit <= creditSent)) {
            return;
        }
        if (ackPoint || creditLimit - creditSent >= creditStep) {
            due = true;
            substrate.feedbackDue(this);
            return;
        }
        lastUnreported = substrate.loop.nanoTime();
        if (timer == null) {
            timer = substrate.loop.schedule(substrate.ackDelayNanos, this::onDelay);
        }
    }

    /** The batch is done: send the report owed, with the progress as it is now. */
    void flush() {
        if (due) {
            send(progress.ackedUpTo(), progress.creditLimit());
        }
    }

    /**
     * Packets {@code [ackedUpTo, missingUpTo)} are missing while a later one is here: ask the parent for them at once,
     * unless this hole was asked for already. The NAK acknowledges and reports credits like any report.
     */
    void gap(long ackedUpTo, long missingUpTo, long creditLimit) {
        if (ackedUpTo <= nakSent) {
            return;
        }
        nakSent = ackedUpTo;
        reported();
        ackedSent = Math.max(ackedSent, ackedUpTo);
        creditSent = Math.max(creditSent, creditLimit);
        substrate.sendReliably(parent,
                PacketCodec.nak(substrate.communicator, root, substrate.rank, ackedUpTo, creditLimit, missingUpTo));
        substrate.counters.feedbackSent++;
    }

    /** Nothing more is reported (the member failed). */
    void cancel() {
        reported();
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
    }

    private void reported() {
        due = false;
        lastUnreported = -1;
    }

    private void onDelay() {
        timer = null;
        long acked = progress.ackedUpTo();
        long credit = progress.creditLimit();
        if (lastUnreported < 0 || (acked <= ackedSent && credit <= creditSent)) {
            lastUnreported = -1;
            return;
        }
        long waited = substrate.loop.nanoTime() - lastUnreported;
        if (waited < substrate.ackDelayNanos) {
            timer = substrate.loop.schedule(substrate.ackDelayNanos - waited, this::onDelay);
        } else {
            send(acked, credit);
        }
    }

    private void send(long ackedUpTo, long creditLimit) {
        reported();
        ackedSent = Math.max(ackedSent, ackedUpTo);
        creditSent = Math.max(creditSent, creditLimit);
        substrate.sendReliably(parent,
                PacketCodec.feedback(substrate.communicator, root, substrate.rank, ackedUpTo, creditLimit));
        substrate.counters.feedbackSent++;
    }
}
