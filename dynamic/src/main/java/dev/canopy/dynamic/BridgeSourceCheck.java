package dev.canopy.dynamic;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.membership.MembershipView;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.transport.SourceCheck;
import io.vertx.core.Future;
import io.vertx.core.Promise;

/**
 * An inter-communicator transport's {@link SourceCheck}: a frame's source rank must be the rank, in the table of
 * both groups, of the member whose address the connection authenticated as. Until this process knows the table
 * (the other group may know it first and already send) frames wait.
 *
 * <p>Called on the transport's context; {@link #follow} and {@link #settle} are called there too.
 */
final class BridgeSourceCheck implements SourceCheck {

    private final Promise<Void> settled = Promise.promise();
    private MembershipView table;

    void follow(MembershipView union) {
        this.table = union;
        settle();
    }

    /** The table is known, or never will be: undecided frames are decided now. */
    void settle() {
        settled.tryComplete();
    }

    @Override
    public Verdict check(NodeAddress peer, Frame frame) {
        if (table == null) {
            return settled.future().isComplete() ? Verdict.REJECT : Verdict.NOT_YET;
        }
        int source = frame.source();
        if (source < 0 || source >= table.size()) {
            return Verdict.REJECT;
        }
        return table.member(source).address().equals(peer) ? Verdict.ACCEPT : Verdict.REJECT;
    }

    @Override
    public Future<Void> settled() {
        return settled.future();
    }
}
