package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.node.NodeAddress;
import io.vertx.core.Future;

/**
 * Whether a frame may come from the peer that authenticated a connection: a frame claiming the rank
 * of another member is refused, so a process can only speak as itself. A node answers from its rank
 * table; before it has one it answers {@link Verdict#NOT_YET} and the connection waits (it stops
 * reading) until {@link #settled()}, then asks again.
 *
 * <p>Called on the transport's context.
 */
public interface SourceCheck {

    enum Verdict { ACCEPT, REJECT, NOT_YET }

    /** Any authenticated peer may send any frame: for transports outside a job (benchmarks, tools). */
    SourceCheck ANY_MEMBER = new SourceCheck() {
        @Override
        public Verdict check(NodeAddress peer, Frame frame) {
            return Verdict.ACCEPT;
        }

        @Override
        public Future<Void> settled() {
            return Future.succeededFuture();
        }
    };

    /** The verdict on {@code frame} from the peer that authenticated as {@code peer}. */
    Verdict check(NodeAddress peer, Frame frame);

    /**
     * Completes once {@link Verdict#NOT_YET} is no longer answered (the rank table is known, or will never
     * be); a frame still undecided then is refused.
     */
    Future<Void> settled();
}
