package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.comm.CommunicatorRuntime;
import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.frame.FrameType;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.LocalJob;
import dev.canopy.core.node.Member;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A job of three real nodes (real ZooKeeper, real sockets) attacked as issue 10 found it: a foreign
 * process that says HELLO claiming rank 1's address and sends DATA frames with {@code src=1} to rank 0
 * is refused at the handshake, and a process that knows the secret (an insider) cannot speak as
 * another rank. Rank 0 receives exactly what the real rank 1 sent.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobAttackTest {

    private static final String JOB = "attacked";
    private static final int TAG = 5;

    private final TestNodes attacker = new TestNodes(1);
    private LocalJob job;

    @BeforeAll
    void startJob() {
        job = LocalJob.start(JOB, LocalJob.spreadOver(3, 2));
    }

    @AfterAll
    void stopJob() {
        job.close();
        attacker.close();
    }

    @Test
    void aForeignProcessImpersonatingRankOneIsRefusedAndRankZeroGetsOnlyTheRealMessages() {
        TransportSecurity noSecret = TransportSecurity.of(JobSecret.generate(), JobId.of(JOB));
        RawHandshake.Connection forged = RawHandshake.connect(attacker.vertx, memberOfRank(0), noSecret,
                memberOfRank(1).address(), Buffer.buffer());
        for (int i = 0; i < 20; i++) {
            forged.socket().write(FrameCodec.encode(frameFromRankOne(i, "forged " + i)));
        }
        Await.result(forged.closed(), Duration.ofSeconds(10));

        assertRankZeroGetsTheRealMessagesOfRankOne("after a foreign process");
        assertThat(job.node(0).securityCounters().get(Rejection.HANDSHAKE_BAD_PROOF)).isEqualTo(1);
    }

    @Test
    void anInsiderCannotSpeakAsAnotherRank() {
        TransportSecurity insider = TransportSecurity.of(job.secret(), JobId.of(JOB));
        // Claiming the lower of ranks 0 and 2 to the higher: a dial from the lower member of a pair is never declined.
        int attacked = VertxTransport.PAIR_ORDER.compare(memberOfRank(0).address(), memberOfRank(2).address()) < 0 ? 2 : 0;
        int claimed = 2 - attacked;
        RawHandshake.Connection connection = RawHandshake.connect(attacker.vertx, memberOfRank(attacked), insider,
                memberOfRank(claimed).address(), Buffer.buffer());
        connection.socket().write(FrameCodec.encode(frameFromRankOne(attacked, 0, "rank " + claimed
                + " pretending to be rank 1")));
        Await.result(connection.closed(), Duration.ofSeconds(10));

        assertRankGetsTheRealMessagesOfRankOne(attacked, "after an insider");
        assertThat(job.node(attacked).securityCounters().get(Rejection.FRAME_WRONG_SOURCE)).isEqualTo(1);
    }

    private void assertRankZeroGetsTheRealMessagesOfRankOne(String when) {
        assertRankGetsTheRealMessagesOfRankOne(0, when);
    }

    private void assertRankGetsTheRealMessagesOfRankOne(int rank, String when) {
        for (String text : new String[] {"real 1 " + when, "real 2 " + when}) {
            Await.result(job.world(1).send(rank, TAG, Buffer.buffer(text)));
            assertThat(Await.result(job.world(rank).receive(1, TAG)).payload().toString()).isEqualTo(text);
        }
    }

    private Member memberOfRank(int rank) {
        return job.world(0).members().get(rank);
    }

    private static Frame frameFromRankOne(long sequence, String text) {
        return frameFromRankOne(0, sequence, text);
    }

    private static Frame frameFromRankOne(int destination, long sequence, String text) {
        return new Frame(FrameType.DATA, JobId.of(JOB).frameKey(), CommunicatorRuntime.WORLD_CONTEXT, 0, 1, destination,
                TAG, sequence, Buffer.buffer(text));
    }
}
