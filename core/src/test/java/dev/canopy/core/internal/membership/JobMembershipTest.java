package dev.canopy.core.internal.membership;

import static dev.canopy.core.internal.membership.MembershipParticipant.WAIT;
import static dev.canopy.core.internal.membership.MembershipParticipant.member;
import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.membership.testing.ServerSideExpiry;
import dev.canopy.core.internal.membership.testing.TestVertx;
import dev.canopy.core.internal.membership.testing.ZooKeeperServers;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.Member;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JobMembershipTest {

    private static final Duration SESSION = Duration.ofSeconds(2);
    private static final Duration LONG_BARRIER = Duration.ofSeconds(60);

    private TestingServer zooKeeper;
    private Vertx vertx;
    private final List<MembershipParticipant> participants = new ArrayList<>();

    @BeforeEach
    void startZooKeeper() throws Exception {
        zooKeeper = ZooKeeperServers.server();
        vertx = TestVertx.create();
    }

    @AfterEach
    void stop() throws Exception {
        participants.forEach(MembershipParticipant::close);
        Await.result(vertx.close(), WAIT);
        zooKeeper.close();
    }

    private MembershipParticipant join(JobId job, Member member, int expectedSize, Duration barrierTimeout) {
        MembershipParticipant participant = new MembershipParticipant(vertx, zooKeeper.getConnectString(), SESSION, job,
                member, expectedSize, barrierTimeout);
        participants.add(participant);
        return participant;
    }

    /** Ids sort differently from coordinates, so the table really follows coordinates first. */
    private static List<Member> threeMembers() {
        return List.of(
                member("a-node", "wan-2", "site-x", "h1", 5000),
                member("b-node", "wan-1", "site-y", "h2", 5010),
                member("c-node", "wan-1", "site-y", "h1", 5020));
    }

    @Test
    void everyNodeAgreesOnTheRankTableSortedByCoordinatesThenId() {
        JobId job = JobId.of("ranks");
        List<Future<MembershipView>> views = threeMembers().stream()
                .map(member -> join(job, member, 3, LONG_BARRIER).start())
                .toList();

        List<MembershipView> agreed = views.stream().map(view -> Await.result(view, WAIT)).toList();

        assertThat(agreed).allSatisfy(view -> assertThat(view).isEqualTo(agreed.get(0)));
        assertThat(agreed.get(0).ranked()).extracting(member -> member.id().value())
                .containsExactly("c-node", "b-node", "a-node");
        assertThat(agreed.get(0).departed()).isEmpty();
    }

    @Test
    void aMemberThatClosesIsSeenLeavingAndKeepsEveryoneElsesRank() {
        JobId job = JobId.of("leave");
        List<MembershipParticipant> three = threeMembers().stream().map(m -> join(job, m, 3, LONG_BARRIER)).toList();
        MembershipView before = Await.result(Future.all(three.stream().map(MembershipParticipant::start).toList())
                .map(all -> all.<MembershipView>resultAt(0)), WAIT);
        MembershipParticipant leaving = three.get(1);

        participants.remove(leaving);
        leaving.close();

        for (MembershipParticipant survivor : List.of(three.get(0), three.get(2))) {
            Await.until(WAIT, () -> survivor.sawLeave(leaving.member.id()), () -> survivor.member.id() + " saw " + survivor.events);
            MembershipView after = survivor.membership.view().orElseThrow();
            assertThat(after.ranked()).isEqualTo(before.ranked());
            assertThat(after.departed()).containsExactly(leaving.member.id());
            assertThat(after.isAlive(survivor.member.id())).isTrue();
        }
    }

    @Test
    void sessionExpiryCountsAsLeaveOnEveryNodeIncludingTheExpiredOne() throws Exception {
        JobId job = JobId.of("expiry");
        List<MembershipParticipant> three = threeMembers().stream().map(m -> join(job, m, 3, LONG_BARRIER)).toList();
        Await.result(Future.all(three.stream().map(MembershipParticipant::start).toList()), WAIT);
        MembershipParticipant victim = three.get(0);

        long killedAt = System.nanoTime();
        ServerSideExpiry.expire(victim.session);

        for (MembershipParticipant participant : three) {
            Await.until(WAIT, () -> participant.sawLeave(victim.member.id()),
                    () -> participant.member.id() + " saw " + participant.events);
        }
        Duration detection = Duration.ofNanos(System.nanoTime() - killedAt);
        assertThat(detection).isLessThan(SESSION.multipliedBy(4));
        assertThat(three.get(1).leaves()).singleElement()
                .satisfies(event -> assertThat(event.reason()).contains("session expired"));
        assertThat(victim.leaves()).singleElement()
                .satisfies(event -> assertThat(event.reason())
                        .contains("this node ZooKeeper at " + zooKeeper.getConnectString() + " expired the session"));
    }

    @Test
    void losingContactWithZooKeeperIsReportedAsSuchAndClosingDoesNotWaitForIt() throws Exception {
        JobId job = JobId.of("contact");
        List<MembershipParticipant> three = threeMembers().stream().map(m -> join(job, m, 3, LONG_BARRIER)).toList();
        Await.result(Future.all(three.stream().map(MembershipParticipant::start).toList()), WAIT);
        String connectString = zooKeeper.getConnectString();

        long stoppedAt = System.nanoTime();
        zooKeeper.stop();

        for (MembershipParticipant participant : three) {
            Await.until(WAIT, () -> participant.sawLeave(participant.member.id()),
                    () -> participant.member.id() + " saw " + participant.events);
            assertThat(participant.leaves()).singleElement().satisfies(event -> assertThat(event.reason())
                    .contains("this node lost contact with ZooKeeper at " + connectString)
                    .doesNotContain("expired"));
        }
        Duration detection = Duration.ofNanos(System.nanoTime() - stoppedAt);
        assertThat(detection).isLessThan(SESSION.multipliedBy(4));

        long closing = System.nanoTime();
        participants.forEach(MembershipParticipant::close);
        participants.clear();
        assertThat(Duration.ofNanos(System.nanoTime() - closing)).isLessThan(SESSION.multipliedBy(2));
    }

    @Test
    void theStartBarrierTimesOutNamingWhoIsThere() {
        JobId job = JobId.of("short");
        MembershipParticipant lonely = join(job, threeMembers().get(0), 3, Duration.ofMillis(500));

        Throwable failure = Await.failure(lonely.start(), WAIT);

        assertThat(failure).hasMessageContaining("start barrier of job short: 1 of 3 members")
                .hasMessageContaining("a-node");
    }

    @Test
    void aDuplicateNodeIdIsRefusedWithTheReason() {
        JobId job = JobId.of("duplicate");
        MembershipParticipant first = join(job, threeMembers().get(0), 2, LONG_BARRIER);
        first.start();
        Await.until(WAIT, () -> first.events.stream().anyMatch(e -> e.kind() == MembershipEvent.Kind.JOINED),
                () -> "the first a-node registered");

        Throwable failure = Await.failure(join(job, threeMembers().get(0), 2, LONG_BARRIER).start(), WAIT);

        assertThat(failure).hasMessageContaining("node id a-node is already registered in job duplicate");
    }

    @Test
    void aNodeJoiningAJobThatAlreadyStartedIsToldToUseAFreshJobName() {
        JobId job = JobId.of("stale");
        List<Member> members = threeMembers();
        Future<?> first = join(job, members.get(0), 1, LONG_BARRIER).start();
        Await.result(first, WAIT);

        Throwable failure = Await.failure(join(job, members.get(1), 1, LONG_BARRIER).start(), WAIT);

        assertThat(failure).hasMessageContaining("job stale had already started")
                .hasMessageContaining("fresh job name");
    }
}
