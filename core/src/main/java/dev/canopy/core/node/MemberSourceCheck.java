package dev.canopy.core.node;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.membership.JobMembership;
import dev.canopy.core.internal.membership.MembershipView;
import dev.canopy.core.transport.SourceCheck;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.Optional;

/**
 * A node's {@link SourceCheck}: a frame's source rank must be the rank of the member whose address the
 * connection authenticated as. Until the node knows the rank table (it has not passed the start
 * barrier yet, while a faster peer already sends) the answer is {@link Verdict#NOT_YET}; once the
 * node has joined, or failed to, or closed, it is settled.
 *
 * <p>Called on the node's context.
 */
final class MemberSourceCheck implements SourceCheck {

    private final Promise<Void> settled = Promise.promise();
    private JobMembership membership;

    /** Answers from {@code membership}'s view from now on. */
    void follow(JobMembership newMembership) {
        this.membership = newMembership;
    }

    /** The rank table is known, or never will be: undecided frames are decided now. */
    void settle() {
        settled.tryComplete();
    }

    @Override
    public Verdict check(NodeAddress peer, Frame frame) {
        Optional<MembershipView> view = membership == null ? Optional.empty() : membership.view();
        if (view.isEmpty()) {
            return settled.future().isComplete() ? Verdict.REJECT : Verdict.NOT_YET;
        }
        int source = frame.source();
        if (source < 0 || source >= view.get().size()) {
            return Verdict.REJECT;
        }
        return view.get().member(source).address().equals(peer) ? Verdict.ACCEPT : Verdict.REJECT;
    }

    @Override
    public Future<Void> settled() {
        return settled.future();
    }
}
