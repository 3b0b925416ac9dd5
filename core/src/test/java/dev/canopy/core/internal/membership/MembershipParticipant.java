package dev.canopy.core.internal.membership;

import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** One test node's membership: its own ZooKeeper session, the events it saw. */
final class MembershipParticipant implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(30);

    final Member member;
    final ZooKeeperSession session;
    final JobMembership membership;
    final Queue<MembershipEvent> events = new ConcurrentLinkedQueue<>();

    MembershipParticipant(Vertx vertx, String connectString, Duration sessionTimeout, JobId job, Member member,
            int expectedSize, Duration barrierTimeout) {
        this(vertx, connectString, sessionTimeout, job, member, expectedSize, barrierTimeout, Optional.empty());
    }

    MembershipParticipant(Vertx vertx, String connectString, Duration sessionTimeout, JobId job, Member member,
            int expectedSize, Duration barrierTimeout, Optional<ZooKeeperCredentials> credentials) {
        this.member = member;
        this.session = Await.result(ZooKeeperSession.open(vertx, connectString, sessionTimeout, Duration.ofSeconds(10),
                credentials), WAIT);
        this.membership = new JobMembership(vertx.getOrCreateContext(), session, job, member, expectedSize,
                barrierTimeout);
        membership.onEvent(events::add);
    }

    Future<MembershipView> start() {
        return membership.start();
    }

    boolean sawLeave(NodeId id) {
        return events.stream().anyMatch(e -> e.kind() == MembershipEvent.Kind.LEFT && e.member().id().equals(id));
    }

    List<MembershipEvent> leaves() {
        return events.stream().filter(e -> e.kind() == MembershipEvent.Kind.LEFT).toList();
    }

    @Override
    public void close() {
        Await.result(membership.close(), WAIT);
        Await.result(session.close(), WAIT);
    }

    static Member member(String id, String wanGroup, String site, String host, int port) {
        return new Member(NodeId.of(id), new Coordinates(wanGroup, site, "lan-" + site, "c-" + site, host),
                new NodeAddress("127.0.0.1", port, port + 1));
    }
}
