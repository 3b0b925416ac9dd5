package dev.canopy.core.comm;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameType;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * Credit-based flow control of communicator traffic, MPI's eager/rendezvous split. The frames are
 * ordinary communicator frames (DATA, COLLECTIVE, CONTROL); user tags are 0 or more, so negative
 * tags mark the protocol's own frames.
 *
 * <ul>
 *   <li>Every sender holds credit per receiving node: {@value #INITIAL_CREDIT} bytes to start with;
 *       the receiver tops it up to its window ({@link MessageLimits#windowPerPeer}) on the first
 *       frame, and gives back what its receives consumed with a {@link #CREDIT_TAG} frame on context
 *       {@value #FLOW_CONTEXT}.
 *   <li><b>Eager</b>: a payload of at most the eager limit goes at once as a frame with its user tag
 *       and costs its length plus {@value #ENVELOPE_COST}, provided {@value #RENDEZVOUS_RESERVE} bytes
 *       of credit remain afterwards (kept for announcements).
 *   <li><b>Rendezvous</b>: any other payload is announced ({@link #ANNOUNCE_TAG}: user tag and size,
 *       costing {@value #ENVELOPE_COST}); the announcement is matched like a message, and once a receive
 *       has taken it the receiver asks for the body ({@link #CLEAR_TO_SEND_TAG}), which the sender then
 *       writes ({@link #BODY_TAG}) straight into that receive. The frame sequence names the rendezvous.
 *   <li>With too little credit even for an announcement, sends wait at the sender, in order: the
 *       sender's future is its back-pressure.
 * </ul>
 * Eager messages and announcements leave a sender in send order over one FIFO connection and are
 * matched in arrival order, so FIFO per (source, tag) holds across the two paths. What a receiver
 * holds for a peer (queued messages, announcements, frames parked for a context it has not created
 * yet) never exceeds the credit it granted; a frame beyond it comes from a sender ignoring the
 * protocol and is rejected ({@link #REJECT_TAG}), which fails that sender's sends to this node.
 */
final class FlowProtocol {

    /** The context of credit grants and rejections; no communicator has it. */
    static final int FLOW_CONTEXT = 0;
    static final int ANNOUNCE_TAG = -2;
    static final int CLEAR_TO_SEND_TAG = -3;
    static final int BODY_TAG = -4;
    static final int CREDIT_TAG = -5;
    static final int REJECT_TAG = -6;

    /** What a queued message or announcement costs beyond its payload (its objects on the heap). */
    static final int ENVELOPE_COST = 256;
    /** Credit every sender starts with towards every receiver. */
    static final int INITIAL_CREDIT = 256 << 10;
    /** Credit eager messages leave for announcements. */
    static final int RENDEZVOUS_RESERVE = 32 << 10;
    static final int MAX_REASON_BYTES = 512;

    private FlowProtocol() {
    }

    /** What a frame costs the receiver while queued or parked; 0 for frames that are never queued. */
    static int cost(Frame frame) {
        if (frame.context() == FLOW_CONTEXT) {
            return 0;
        }
        if (frame.tag() >= 0) {
            return frame.payload().length() + ENVELOPE_COST;
        }
        return frame.tag() == ANNOUNCE_TAG ? ENVELOPE_COST : 0;
    }

    static int eagerCost(int payloadLength) {
        return payloadLength + ENVELOPE_COST;
    }

    static Buffer announcement(int tag, int size) {
        return Buffer.buffer(8).appendInt(tag).appendInt(size);
    }

    static Frame credit(long job, int self, int peer, long bytes) {
        return new Frame(FrameType.CONTROL, job, FLOW_CONTEXT, 0, self, peer, CREDIT_TAG, 0,
                Buffer.buffer(8).appendLong(bytes));
    }

    static Frame reject(long job, int self, int peer, String reason) {
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        return new Frame(FrameType.CONTROL, job, FLOW_CONTEXT, 0, self, peer, REJECT_TAG, 0,
                Buffer.buffer(text).slice(0, Math.min(text.length, MAX_REASON_BYTES)));
    }
}
