package dev.canopy.core.transport;

import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.security.tls.TlsSettings;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.TrustOptions;
import java.nio.ByteBuffer;
import java.security.cert.Certificate;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS under the handshake, when {@link TransportOptions#tls()} asks for it: TLS 1.3 only, each side
 * presents its certificate and requires the other's ({@link ClientAuth#REQUIRED}), both checked against
 * the configured CAs, then against the peer name ({@link TlsSettings#refusal}). Host names are not
 * verified: nodes are reached at addresses from ZooKeeper, which certificates issued before a job do not
 * know; a job's certificates are recognised by their CA and peer name instead.
 *
 * <p>Also tells a peer of the other kind apart, so that a node with TLS and one without refuse each other
 * with a message naming the option rather than a hang or an obscure protocol error.
 */
final class TransportTls {

    private static final String FIX = "run every node of the job with --tls (TransportOptions.withTls) or none";

    private TransportTls() {
    }

    /** Key and trust managers built once, off the event loop (parsing keys and starting JSSE take a while). */
    record Prepared(KeyCertOptions keyCert, TrustOptions trust) {
    }

    /**
     * Builds the key and trust managers of {@code tls} and runs the first steps of a handshake, so the JVM's
     * TLS engine is loaded and initialised; call it on a worker thread. Afterwards a transport starts and
     * handshakes without blocking its event loop for long.
     */
    static Prepared prepare(Vertx vertx, TlsSettings tls) throws Exception {
        KeyManagerFactory keys = new PemKeyCertOptions().setCertValue(Buffer.buffer(tls.certificatePem()))
                .setKeyValue(Buffer.buffer(tls.keyPem())).getKeyManagerFactory(vertx);
        TrustManagerFactory trust = new PemTrustOptions().addCertValue(Buffer.buffer(tls.caPem()))
                .getTrustManagerFactory(vertx);
        SSLContext context = SSLContext.getInstance(TlsSettings.PROTOCOL);
        context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(true);
        engine.setEnabledProtocols(new String[] {TlsSettings.PROTOCOL});
        engine.beginHandshake();
        engine.wrap(ByteBuffer.allocate(0), ByteBuffer.allocate(engine.getSession().getPacketBufferSize()));
        return new Prepared(KeyCertOptions.wrap(keys), TrustOptions.wrap(trust));
    }

    static NetServerOptions serverOptions(Optional<Prepared> tls, TransportSecurity security) {
        NetServerOptions server = new NetServerOptions().setTcpNoDelay(true);
        tls.ifPresent(prepared -> server.setSsl(true)
                .setKeyCertOptions(prepared.keyCert())
                .setTrustOptions(prepared.trust())
                .setClientAuth(ClientAuth.REQUIRED)
                .setSslEngineOptions(engineOptions())
                .setEnabledSecureTransportProtocols(Set.of(TlsSettings.PROTOCOL))
                .setSslHandshakeTimeout(security.handshakeTimeout().toMillis())
                .setSslHandshakeTimeoutUnit(TimeUnit.MILLISECONDS));
        return server;
    }

    static NetClientOptions clientOptions(TransportOptions options, Optional<Prepared> tls, TransportSecurity security) {
        NetClientOptions client = new NetClientOptions().setTcpNoDelay(true)
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, options.connectTimeout().toMillis()));
        tls.ifPresent(prepared -> client.setSsl(true)
                .setKeyCertOptions(prepared.keyCert())
                .setTrustOptions(prepared.trust())
                .setHostnameVerificationAlgorithm("")
                .setSslEngineOptions(engineOptions())
                .setEnabledSecureTransportProtocols(Set.of(TlsSettings.PROTOCOL))
                .setSslHandshakeTimeout(security.handshakeTimeout().toMillis())
                .setSslHandshakeTimeoutUnit(TimeUnit.MILLISECONDS));
        return client;
    }

    /**
     * The JDK's engine, with the handshake's heavy steps (signatures, certificate paths) on worker threads:
     * on a loaded machine a first handshake in a cold JVM blocked an event loop for seconds.
     */
    private static JdkSSLEngineOptions engineOptions() {
        return new JdkSSLEngineOptions().setUseWorkerThread(true);
    }

    /**
     * Whether {@code chunk}, the first bytes of a connection, is a TLS record (a handshake or an alert:
     * content type 22 or 21, version 3.x); the handshake's frames start with the magic {@code CNPY}.
     */
    static boolean isTlsRecord(Buffer chunk) {
        if (chunk.length() < 2) {
            return false;
        }
        byte type = chunk.getByte(0);
        return (type == 22 || type == 21) && chunk.getByte(1) == 3;
    }

    /** Why a peer whose TLS handshake succeeded is still refused (its certificate lacks the peer name), if it is. */
    static Optional<String> refusal(TlsSettings tls, NetSocket socket) {
        List<Certificate> certificates;
        try {
            certificates = socket.peerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return Optional.of("the peer's certificate is not verified (" + e.getMessage() + ")");
        }
        return tls.refusal(certificates == null ? List.of() : certificates);
    }

    /** Whether {@code failure} of a connection attempt is the TLS handshake's. */
    static boolean isTlsFailure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SSLException || cause.getClass().getName().equals("io.netty.handler.ssl.NotSslRecordException")) {
                return true;
            }
        }
        return false;
    }

    /** Why the TLS handshake of a connection this node accepted failed, for the counters and the log. */
    static Rejection serverRejection(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause.getClass().getName().equals("io.netty.handler.ssl.NotSslRecordException")) {
                return Rejection.TLS_PLAINTEXT_PEER;
            }
        }
        return Rejection.TLS_HANDSHAKE_FAILED;
    }

    static String serverDetail(Rejection rejection, Throwable failure) {
        return rejection == Rejection.TLS_PLAINTEXT_PEER
                ? "a peer without TLS connected to this node, which requires TLS; " + FIX
                : "TLS handshake failed: the peer's certificate is not from this node's CA (--tls-ca) or has expired,"
                        + " or the peer offers no TLS 1.3 (" + rootMessage(failure) + ")";
    }

    /** Why this node, with TLS, could not complete the TLS handshake with a server. */
    static String clientDetail(Throwable failure) {
        return "TLS handshake failed: the peer runs without TLS (" + FIX + "), or one of the two certificates is not"
                + " from the other's CA (--tls-ca); the peer's log says which (" + rootMessage(failure) + ")";
    }

    /** A peer without TLS met a TLS record where it expected the handshake. */
    static String unexpectedTlsDetail(String whose) {
        return whose + " speaks TLS but this node runs without it; " + FIX;
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

}
