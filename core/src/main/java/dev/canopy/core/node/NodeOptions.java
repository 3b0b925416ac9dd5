package dev.canopy.core.node;

import dev.canopy.core.comm.MessageLimits;
import dev.canopy.core.internal.membership.ZooKeeperCredentials;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.core.security.tls.ZooKeeperTls;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.gridconfig.Coordinates;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a {@link CanopyNode} needs, validated once.
 *
 * @param job            the job to join; every node of a job uses the same name
 * @param id             this node's id, unique in the job
 * @param coordinates    where this node sits in the grid; with the id, decides its rank
 * @param expectedSize   how many nodes the start barrier waits for
 * @param zooKeeper      the ensemble, {@code host:port,...} (the CLI starts an embedded server, from
 *                       canopy-zookeeper-server, and passes its address when the user gives none)
 * @param sessionTimeout the ZooKeeper session timeout: a crashed node is seen to leave after about this long
 * @param departureGrace once a member is seen to leave, how long receives from it may still wait for the
 *                       frames it sent before leaving: they fail as soon as its connections to this node
 *                       have closed, and at the latest after this long (for a member that stays connected,
 *                       never connected, or vanished without closing). Sends to it fail at once.
 * @param barrierTimeout how long to wait at the start barrier for the other nodes
 * @param transport      sockets and queue bounds; the node label is set by the node
 * @param layers         what to put over the real transport (WAN emulation, fault injection)
 * @param secret         the job secret every node of the job shares: only nodes that prove they know it
 *                       get in (see docs/security.md)
 * @param messageLimits  how much unreceived data other nodes may leave at this one (per peer and in
 *                       total) and the eager/rendezvous threshold of its sends
 * @param heartbeat      how members watch each other for failures that close no connection (see
 *                       {@link HeartbeatSettings}); raise period and timeout on WANs
 * @param zooKeeperTls   with a value, the ZooKeeper client talks TLS to the servers' secure client port
 *                       ({@code --zk-tls}); empty: plain TCP
 */
public record NodeOptions(
        JobId job,
        NodeId id,
        Coordinates coordinates,
        int expectedSize,
        String zooKeeper,
        Duration sessionTimeout,
        Duration departureGrace,
        Duration barrierTimeout,
        TransportOptions transport,
        TransportStack layers,
        JobSecret secret,
        MessageLimits messageLimits,
        HeartbeatSettings heartbeat,
        Optional<ZooKeeperTls> zooKeeperTls) {

    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(4);
    public static final Duration DEFAULT_DEPARTURE_GRACE = Duration.ofSeconds(1);
    public static final Duration DEFAULT_BARRIER_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration MIN_SESSION_TIMEOUT = Duration.ofSeconds(1);

    public NodeOptions {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(coordinates, "coordinates");
        Objects.requireNonNull(zooKeeper, "zooKeeper");
        Objects.requireNonNull(sessionTimeout, "sessionTimeout");
        Objects.requireNonNull(departureGrace, "departureGrace");
        Objects.requireNonNull(barrierTimeout, "barrierTimeout");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(layers, "layers");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(messageLimits, "messageLimits");
        Objects.requireNonNull(heartbeat, "heartbeat");
        Objects.requireNonNull(zooKeeperTls, "zooKeeperTls");
        if (expectedSize < 1) {
            throw new IllegalArgumentException("expected job size " + expectedSize + " must be at least 1");
        }
        if (zooKeeper.isBlank()) {
            throw new IllegalArgumentException("ZooKeeper connect string is empty; give host:port,...");
        }
        if (sessionTimeout.compareTo(MIN_SESSION_TIMEOUT) < 0) {
            throw new IllegalArgumentException("session timeout " + sessionTimeout.toMillis()
                    + " ms is below the 1000 ms ZooKeeper servers accept");
        }
        if (departureGrace.isNegative()) {
            throw new IllegalArgumentException("departure grace " + departureGrace + " must be 0 or more"
                    + " (0: receives from a departed member fail at once unless its connections have closed)");
        }
        if (barrierTimeout.isNegative() || barrierTimeout.isZero()) {
            throw new IllegalArgumentException("barrier timeout " + barrierTimeout + " must be positive");
        }
    }

    /**
     * Options with default timeouts, loopback transport on ephemeral ports and no transport layers; every node
     * of the job must be given the same {@code secret}.
     */
    public static NodeOptions of(JobId job, NodeId id, Coordinates coordinates, int expectedSize, String zooKeeper,
            JobSecret secret) {
        return new NodeOptions(job, id, coordinates, expectedSize, zooKeeper, DEFAULT_SESSION_TIMEOUT,
                DEFAULT_DEPARTURE_GRACE, DEFAULT_BARRIER_TIMEOUT, TransportOptions.defaults(), TransportStack.none(), secret,
                MessageLimits.defaults(), HeartbeatSettings.defaults(), Optional.empty());
    }

    public NodeOptions withSessionTimeout(Duration newSessionTimeout) {
        return new NodeOptions(job, id, coordinates, expectedSize, zooKeeper, newSessionTimeout, departureGrace,
                barrierTimeout, transport, layers, secret, messageLimits, heartbeat, zooKeeperTls);
    }

    public NodeOptions withDepartureGrace(Duration newDepartureGrace) {
        return new NodeOptions(job, id, coordinates, expectedSize, zooKeeper, sessionTimeout, newDepartureGrace,
                barrierTimeout, transport, layers, secret, messageLimits, heartbeat, zooKeeperTls);
    }

    public NodeOptions withBarrierTimeout(Duration newBarrierTimeout) {
        return new NodeOptions(job, id, coordinates, expectedSize, zooKeeper, sessionTimeout, departureGrace,
                newBarrierTimeout, transport, layers, secret, messageLimits, heartbeat, zooKeeperTls);
    }

    public NodeOptions withTransport(TransportOptions newTransport) {
        return new NodeOptions(job, id, coordinates, expectedSize, zooKeeper, sessionTimeout, departureGrace,
                barrierTimeout, newTransport, layers, secret, messageLimits, heartbeat, zooKeeperTls);
    }

    /** TLS 1.3 with mutual authentication on every connection of the transport (see docs/security.md, "TLS"). */
    public NodeOptions withTls(TlsSettings tls) {
        return withTransport(transport.withTls(tls));
    }

    public NodeOptions withLayers(TransportStack newLayers) {
        return new NodeOptions(job, id, coordinates, expectedSize, zooKeeper, sessionTimeout, departureGrace,
                barrierTimeout, transport, newLayers, secret, messageLimits, heartbeat, zooKeeperTls);
    }

    /**
     * The job's ZooKeeper identity, derived from the job secret: every znode of the job is readable and
     * writable only by clients that know the secret (see docs/security.md).
     */
    public ZooKeeperCredentials zooKeeperCredentials() {
        return ZooKeeperCredentials.of(secret);
    }

    public NodeOptions withMessageLimits(MessageLimits newMessageLimits) {
        return new NodeOptions(job, id, coordinates, expectedSize, zooKeeper, sessionTimeout, departureGrace,
                barrierTimeout, transport, layers, secret, newMessageLimits, heartbeat, zooKeeperTls);
    }

    public NodeOptions withHeartbeat(HeartbeatSettings newHeartbeat) {
        return new NodeOptions(job, id, coordinates, expectedSize, zooKeeper, sessionTimeout, departureGrace,
                barrierTimeout, transport, layers, secret, messageLimits, newHeartbeat, zooKeeperTls);
    }

    /** Talk TLS to ZooKeeper with the files of {@code tls} (see docs/security.md, "Securing ZooKeeper"). */
    public NodeOptions withZooKeeperTls(ZooKeeperTls tls) {
        return new NodeOptions(job, id, coordinates, expectedSize, zooKeeper, sessionTimeout, departureGrace,
                barrierTimeout, transport, layers, secret, messageLimits, heartbeat, Optional.of(tls));
    }
}
