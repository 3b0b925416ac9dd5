package dev.canopy.core.transport;

import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link VertxTransport} tells the job's members from everyone else: the job's secret and name
 * (every connection starts with a mutual challenge-response proving both, see {@link Handshake}; every
 * datagram carries a MAC derived from them), how long a connection may take to authenticate, and which
 * frames an authenticated peer may send ({@link SourceCheck}).
 *
 * @param secret           the job secret every member shares
 * @param job              the job; a member of another job is refused even with the same secret
 * @param handshakeTimeout a connection that has not authenticated after this long is closed
 * @param sourceCheck      which frames an authenticated peer may send
 */
public record TransportSecurity(JobSecret secret, JobId job, Duration handshakeTimeout, SourceCheck sourceCheck) {

    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    public TransportSecurity {
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(handshakeTimeout, "handshakeTimeout");
        Objects.requireNonNull(sourceCheck, "sourceCheck");
        if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
            throw new IllegalArgumentException("handshake timeout " + handshakeTimeout + " must be positive");
        }
    }

    /** The default handshake timeout; every authenticated peer may send any frame. */
    public static TransportSecurity of(JobSecret secret, JobId job) {
        return new TransportSecurity(secret, job, DEFAULT_HANDSHAKE_TIMEOUT, SourceCheck.ANY_MEMBER);
    }

    /**
     * Loads and seeds the JVM's crypto now, on the calling thread, so that the first handshake does not
     * do it on an event loop (it can take a good part of a second on a loaded machine).
     */
    public static void prepareCrypto() {
        Handshake.prepareCrypto();
    }

    public TransportSecurity withHandshakeTimeout(Duration newTimeout) {
        return new TransportSecurity(secret, job, newTimeout, sourceCheck);
    }

    public TransportSecurity withSourceCheck(SourceCheck newCheck) {
        return new TransportSecurity(secret, job, handshakeTimeout, newCheck);
    }

    @Override
    public String toString() {
        return "TransportSecurity[job=" + job + ", handshakeTimeout=" + handshakeTimeout + "]";
    }
}
