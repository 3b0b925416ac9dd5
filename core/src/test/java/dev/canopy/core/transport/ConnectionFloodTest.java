package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.node.Member;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A foreign process floods a node with connections, in waves: some stay silent, some send garbage,
 * some a HELLO of another job, some a well-formed HELLO followed by a forged proof. Every one is
 * refused and counted exactly once, none lingers (an unauthenticated connection holds at most one
 * handshake message, and lives at most the handshake deadline), and a member keeps talking to the
 * node throughout.
 */
class ConnectionFloodTest {

    private static final long SEED = 20261125L;
    private static final int WAVE = 500;

    private final TestNodes nodes = new TestNodes();

    @AfterEach
    void tearDown() {
        nodes.close();
    }

    @Test
    void aThousandForeignConnectionsAreAllRefusedWhileAMemberKeepsTalking() {
        flood(1_000);
    }

    @Test
    @Tag("exhaustive")
    void tenThousandForeignConnectionsAreAllRefusedWhileAMemberKeepsTalking() {
        flood(10_000);
    }

    private void flood(int connections) {
        Transport good = nodes.start("good");
        Transport server = nodes.start(TransportOptions.defaults().withNodeLabel("server"),
                nodes.security.withHandshakeTimeout(Duration.ofSeconds(2)));
        BlockingQueue<Frame> received = new LinkedBlockingQueue<>();
        server.frameHandler(received::add);
        Member toServer = TestNodes.member("server", "s", server);
        NetClient attacker = nodes.vertx.createNetClient();
        Random random = new Random(SEED);
        long sequence = 0;
        Await.result(good.send(toServer, TestNodes.data(sequence, 64)));
        assertThat(Await.next(received).sequence()).isEqualTo(sequence);
        for (int first = 0; first < connections; first += WAVE) {
            List<Future<Void>> closed = new ArrayList<>();
            for (int i = first; i < Math.min(connections, first + WAVE); i++) {
                closed.add(attack(attacker, toServer, i % 4, random.nextLong()));
            }
            Await.result(good.send(toServer, TestNodes.data(++sequence, 64)));
            assertThat(Await.next(received).sequence()).as("a member's frame during the flood (seed %d)", SEED)
                    .isEqualTo(sequence);
            Await.result(Future.join(closed), Duration.ofSeconds(60));
        }

        Await.until(() -> server.securityCounters().total() == connections,
                () -> "every foreign connection refused once: " + server.securityCounters());
        // The silent ones can only time out; on a loaded machine some others may too, before their bytes are read.
        assertThat(server.securityCounters().get(Rejection.HANDSHAKE_TIMEOUT)).isGreaterThanOrEqualTo(connections / 4);
        assertThat(server.securityCounters().get(Rejection.HANDSHAKE_EVICTED)).isZero();
        assertThat(Await.result(((VertxTransport) server).inboundConnections()))
                .as("only the member's connection is left").isEqualTo(1);
        Await.result(good.send(toServer, TestNodes.data(++sequence, 64)));
        assertThat(Await.next(received).sequence()).isEqualTo(sequence);
        assertThat(received).as("nothing of the flood is delivered").isEmpty();
    }

    /** One foreign connection of the given kind; completes when the node has closed it. */
    private Future<Void> attack(NetClient attacker, Member target, int kind, long noise) {
        Promise<Void> closed = Promise.promise();
        attacker.connect(target.address().tcpPort(), "127.0.0.1").onComplete(connected -> {
            if (connected.failed()) {
                closed.fail(connected.cause());
                return;
            }
            NetSocket socket = connected.result();
            socket.closeHandler(v -> closed.tryComplete());
            Buffer garbage = Buffer.buffer(new byte[64]).setLong(0, noise);
            byte[] nonce = new byte[Hello.NONCE_BYTES];
            PeerIdentity claimed = PeerIdentity.of(target.address(), "intruder");
            switch (kind) {
                case 0 -> { } // silent: the handshake deadline closes it
                case 1 -> socket.write(garbage);
                case 2 -> socket.write(FrameCodec.encode(Hello.clientHello(noise, nonce, claimed)));
                default -> {
                    socket.handler(serverHello -> socket.write(FrameCodec.encode(Hello.clientProof(TestNodes.JOB,
                            new byte[Hello.PROOF_BYTES]))));
                    socket.write(FrameCodec.encode(Hello.clientHello(TestNodes.JOB, nonce, claimed)));
                }
            }
        });
        return closed.future();
    }
}
