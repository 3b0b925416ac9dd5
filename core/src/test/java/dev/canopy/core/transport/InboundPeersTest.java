package dev.canopy.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When a departed peer's inbound stream counts as ended, driven event by event (no sockets). */
class InboundPeersTest {

    private static final NodeAddress PEER = new NodeAddress("127.0.0.1", 7000, 7001);
    private static final Duration GRACE = Duration.ofSeconds(30);

    private final Vertx vertx = Vertx.vertx();
    private final InboundPeers peers = new InboundPeers(vertx);

    @AfterEach
    void close() {
        Await.result(vertx.close());
    }

    @Test
    void aPeerWhoseConnectionsAllClosedHasEnded() {
        peers.accepted();
        peers.opened(PEER);
        Future<InboundEnd> end = peers.awaitEnd(PEER, GRACE);
        assertThat(end.isComplete()).isFalse();

        peers.closed(PEER);

        assertThat(end.result()).isEqualTo(InboundEnd.CONNECTIONS_CLOSED);
        assertThat(peers.awaitEnd(PEER, GRACE).result()).isEqualTo(InboundEnd.CONNECTIONS_CLOSED);
    }

    /** Found in review: the peer reconnected to send its last frames, and the new connection has not said HELLO yet. */
    @Test
    void aConnectionThatHasNotSaidHelloYetMayBeThePeersLastFrames() {
        peers.accepted();
        peers.opened(PEER);
        peers.closed(PEER);
        peers.accepted();

        Future<InboundEnd> end = peers.awaitEnd(PEER, GRACE);
        assertThat(end.isComplete()).as("ended while a connection is unidentified").isFalse();
        peers.opened(PEER);
        assertThat(end.isComplete()).as("ended while the reconnection is open").isFalse();
        peers.closed(PEER);

        assertThat(end.result()).isEqualTo(InboundEnd.CONNECTIONS_CLOSED);
    }

    @Test
    void anUnidentifiedConnectionThatClosesReleasesTheWait() {
        peers.accepted();
        peers.opened(PEER);
        peers.closed(PEER);
        peers.accepted();
        Future<InboundEnd> end = peers.awaitEnd(PEER, GRACE);

        peers.closedUnidentified();

        assertThat(end.result()).isEqualTo(InboundEnd.CONNECTIONS_CLOSED);
    }

    @Test
    void aPeerThatNeverConnectedWaitsForTheGrace() {
        Future<InboundEnd> end = peers.awaitEnd(PEER, Duration.ofMillis(50));

        assertThat(Await.result(end)).isEqualTo(InboundEnd.TIMED_OUT);
    }
}
