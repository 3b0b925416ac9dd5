package dev.canopy.core.transport;

import dev.canopy.core.internal.frame.FrameCodec;
import dev.canopy.core.security.tls.TlsSettings;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Settings of a {@link VertxTransport}, validated once when built. Start from {@link #defaults()}
 * and change fields with the {@code with...} methods.
 *
 * <p>Back-pressure per peer is a value to wait for, not an error. Frames are written to the socket while its
 * write queue holds less than {@code writeQueueHighWaterBytes}; further frames wait, in order, for the socket to
 * drain, and a send's future completes once its frame is written. While the bytes held for one peer (waiting
 * plus unflushed) are at or over {@code writeQueueLimitBytes}, {@link Transport#drained} is pending: a producer
 * that awaits it before each send (or awaits its sends) holds at most about that limit for a peer that reads
 * slowly. Frames that wait longer than {@code drainTimeout} fail with {@link BackPressureException}: a peer that
 * stopped reading releases what was queued for it.
 *
 * @param host                     the address to bind (loopback by default; {@code 0.0.0.0} binds every interface)
 * @param advertisedHost           the address peers use to reach this node: it goes into the member znode and
 *                                 the HELLO of every connection; {@link #host} unless set apart, never a wildcard
 * @param tcpPort                  TCP port, 0 for an ephemeral one
 * @param udpPort                  UDP port, 0 for an ephemeral one
 * @param maxFrameBytes            the largest frame sent or accepted, header included
 * @param maxDatagramBytes         the largest frame sent or accepted as one datagram
 * @param writeQueueHighWaterBytes unflushed bytes per connection above which frames wait for drain
 * @param writeQueueLimitBytes     bytes held per peer from which {@link Transport#drained} waits
 * @param drainTimeout             how long a waiting frame may wait for the socket to drain
 * @param connectTimeout           how long one connection attempt may take
 * @param reconnectAttempts        connection attempts before queued frames fail (at least 1)
 * @param reconnectBackoff         pause before the second attempt; doubles for each further one
 * @param nodeLabel                how log lines name this node, e.g. {@code site/host#3}
 * @param tls                      TLS 1.3 with mutual authentication on every connection, or none (the
 *                                 handshake runs either way); every node of a job must make the same choice
 */
public record TransportOptions(
        String host,
        String advertisedHost,
        int tcpPort,
        int udpPort,
        int maxFrameBytes,
        int maxDatagramBytes,
        int writeQueueHighWaterBytes,
        long writeQueueLimitBytes,
        Duration drainTimeout,
        Duration connectTimeout,
        int reconnectAttempts,
        Duration reconnectBackoff,
        String nodeLabel,
        Optional<TlsSettings> tls) {

    public static final String LOOPBACK = "127.0.0.1";
    private static final Set<String> WILDCARDS = Set.of("0.0.0.0", "::", "0:0:0:0:0:0:0:0", "[::]");

    public TransportOptions {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(advertisedHost, "advertisedHost");
        if (host.isBlank() || advertisedHost.isBlank()) {
            throw new IllegalArgumentException("the host to bind and the advertised host must not be empty");
        }
        if (WILDCARDS.contains(advertisedHost)) {
            throw new IllegalArgumentException("advertised host " + advertisedHost + " is a wildcard address that peers"
                    + " cannot connect to; advertise an address of this machine (TransportOptions.withHost(host, advertisedHost))");
        }
        Objects.requireNonNull(drainTimeout, "drainTimeout");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(reconnectBackoff, "reconnectBackoff");
        Objects.requireNonNull(nodeLabel, "nodeLabel");
        Objects.requireNonNull(tls, "tls");
        requirePort(tcpPort, "tcpPort");
        requirePort(udpPort, "udpPort");
        if (maxFrameBytes < FrameCodec.HEADER_LENGTH) {
            throw new IllegalArgumentException("maxFrameBytes " + maxFrameBytes + " must be at least the "
                    + FrameCodec.HEADER_LENGTH + "-byte header");
        }
        if (maxDatagramBytes < FrameCodec.HEADER_LENGTH || maxDatagramBytes > FrameCodec.MAX_UDP_PAYLOAD) {
            throw new IllegalArgumentException("maxDatagramBytes " + maxDatagramBytes + " must be between "
                    + FrameCodec.HEADER_LENGTH + " and " + FrameCodec.MAX_UDP_PAYLOAD + " (one UDP datagram)");
        }
        if (writeQueueHighWaterBytes < 1) {
            throw new IllegalArgumentException("writeQueueHighWaterBytes " + writeQueueHighWaterBytes + " must be positive");
        }
        if (writeQueueLimitBytes < writeQueueHighWaterBytes) {
            throw new IllegalArgumentException("writeQueueLimitBytes " + writeQueueLimitBytes
                    + " must be at least writeQueueHighWaterBytes " + writeQueueHighWaterBytes);
        }
        requirePositive(drainTimeout, "drainTimeout");
        requirePositive(connectTimeout, "connectTimeout");
        requirePositive(reconnectBackoff, "reconnectBackoff");
        if (reconnectAttempts < 1) {
            throw new IllegalArgumentException("reconnectAttempts " + reconnectAttempts + " must be at least 1");
        }
    }

    /** Loopback, ephemeral ports, 16 MiB frames, 4 MiB high water, 64 MiB per-peer limit. */
    public static TransportOptions defaults() {
        return new TransportOptions(LOOPBACK, LOOPBACK, 0, 0, 16 * 1024 * 1024, FrameCodec.MAX_UDP_PAYLOAD,
                4 * 1024 * 1024, 64L * 1024 * 1024, Duration.ofSeconds(30), Duration.ofSeconds(2), 4,
                Duration.ofMillis(50), "transport", Optional.empty());
    }

    /** Binds {@code newHost} and advertises it. */
    public TransportOptions withHost(String newHost) {
        return new TransportOptions(newHost, newHost, tcpPort, udpPort, maxFrameBytes, maxDatagramBytes,
                writeQueueHighWaterBytes, writeQueueLimitBytes, drainTimeout, connectTimeout, reconnectAttempts,
                reconnectBackoff, nodeLabel, tls);
    }

    /** Binds {@code newHost} (say, {@code 0.0.0.0} for every interface) and advertises {@code newAdvertisedHost}. */
    public TransportOptions withHost(String newHost, String newAdvertisedHost) {
        return new TransportOptions(newHost, newAdvertisedHost, tcpPort, udpPort, maxFrameBytes, maxDatagramBytes,
                writeQueueHighWaterBytes, writeQueueLimitBytes, drainTimeout, connectTimeout, reconnectAttempts,
                reconnectBackoff, nodeLabel, tls);
    }

    public TransportOptions withPorts(int newTcpPort, int newUdpPort) {
        return new TransportOptions(host, advertisedHost, newTcpPort, newUdpPort, maxFrameBytes, maxDatagramBytes,
                writeQueueHighWaterBytes, writeQueueLimitBytes, drainTimeout, connectTimeout, reconnectAttempts,
                reconnectBackoff, nodeLabel, tls);
    }

    public TransportOptions withMaxFrameBytes(int newMaxFrameBytes) {
        return new TransportOptions(host, advertisedHost, tcpPort, udpPort, newMaxFrameBytes, maxDatagramBytes,
                writeQueueHighWaterBytes, writeQueueLimitBytes, drainTimeout, connectTimeout, reconnectAttempts,
                reconnectBackoff, nodeLabel, tls);
    }

    public TransportOptions withWriteQueue(int newHighWaterBytes, long newLimitBytes, Duration newDrainTimeout) {
        return new TransportOptions(host, advertisedHost, tcpPort, udpPort, maxFrameBytes, maxDatagramBytes,
                newHighWaterBytes, newLimitBytes, newDrainTimeout, connectTimeout, reconnectAttempts, reconnectBackoff,
                nodeLabel, tls);
    }

    public TransportOptions withReconnect(Duration newConnectTimeout, int newAttempts, Duration newBackoff) {
        return new TransportOptions(host, advertisedHost, tcpPort, udpPort, maxFrameBytes, maxDatagramBytes,
                writeQueueHighWaterBytes, writeQueueLimitBytes, drainTimeout, newConnectTimeout, newAttempts,
                newBackoff, nodeLabel, tls);
    }

    public TransportOptions withNodeLabel(String newNodeLabel) {
        return new TransportOptions(host, advertisedHost, tcpPort, udpPort, maxFrameBytes, maxDatagramBytes,
                writeQueueHighWaterBytes, writeQueueLimitBytes, drainTimeout, connectTimeout, reconnectAttempts,
                reconnectBackoff, newNodeLabel, tls);
    }

    /** TLS 1.3 with mutual authentication under {@code settings}, beneath the handshake (docs/security.md). */
    public TransportOptions withTls(TlsSettings settings) {
        return new TransportOptions(host, advertisedHost, tcpPort, udpPort, maxFrameBytes, maxDatagramBytes,
                writeQueueHighWaterBytes, writeQueueLimitBytes, drainTimeout, connectTimeout, reconnectAttempts,
                reconnectBackoff, nodeLabel, Optional.of(settings));
    }

    private static void requirePort(int port, String field) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(field + " " + port + " is not a port (0 for ephemeral, up to 65535)");
        }
    }

    private static void requirePositive(Duration duration, String field) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(field + " " + duration + " must be positive");
        }
    }
}
