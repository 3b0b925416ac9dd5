package dev.canopy.probes.internal.measure;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.membership.MembershipView;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import io.vertx.core.net.SocketAddress;
import java.util.Optional;

/**
 * Decides whether an incoming probe frame comes from a live member of this node's job and is meant for
 * this node; only such frames are answered or believed.
 */
final class MembershipGuard {

    /** The verdict on one frame: the member it comes from, or why it is refused. */
    sealed interface Verdict {
    }

    record Admitted(Member source) implements Verdict {
    }

    record Refused(DropReason reason) implements Verdict {
    }

    private final long job;

    MembershipGuard(long job) {
        this.job = job;
    }

    /** Checks job, ranks and, for datagrams, that the sender socket is the source member's UDP socket. */
    Verdict check(Frame frame, Optional<SocketAddress> sender, MembershipView view, int selfRank) {
        if (frame.job() != job) {
            return new Refused(DropReason.OTHER_JOB);
        }
        if (frame.destination() != selfRank) {
            return new Refused(DropReason.NOT_FOR_THIS_NODE);
        }
        if (frame.source() < 0 || frame.source() >= view.size()) {
            return new Refused(DropReason.NOT_A_MEMBER);
        }
        Member source = view.member(frame.source());
        if (!view.isAlive(source.id())) {
            return new Refused(DropReason.NOT_A_MEMBER);
        }
        if (sender.isPresent() && !comesFrom(sender.get(), source.address())) {
            return new Refused(DropReason.WRONG_SENDER_ADDRESS);
        }
        return new Admitted(source);
    }

    private static boolean comesFrom(SocketAddress sender, NodeAddress address) {
        return sender.port() == address.udpPort() && address.host().equals(sender.hostAddress());
    }
}
