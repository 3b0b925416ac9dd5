package dev.canopy.core.transport;

import dev.canopy.core.security.JobSecret;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * The mutual challenge-response that opens every TCP connection; the connection carries frames only
 * once both sides proved they know the job secret.
 *
 * <pre>
 * client                                   server
 *   HELLO(client nonce Nc, job, client identity)  -->
 *                                           <-- HELLO(server nonce Ns, job, server proof, server identity)
 *   client proof                                  -->
 *                                           <-- accept (or decline: the server's own dial to the client wins)
 *   frames ...                                   <-->
 * </pre>
 *
 * A proof is HMAC-SHA-256, under a key derived from the secret and the job name, of the role, the
 * handshake version, the job key, both nonces and both identities as sent. So a proof is good for one
 * connection only (the other side's fresh nonce), one job, and the identities both sides claimed: a
 * peer's identity comes from the handshake, not from a header field. Proofs are compared in constant
 * time. The client also checks that the server is the member it dialled (its identity's address).
 * Frames go both ways on an accepted connection (one per member pair), so both sides authenticate each other.
 * The client writes frames only after the server's accept: a connection the server closes at its
 * handshake deadline, while the proof was on its way, loses no frame (they wait for the next attempt).
 *
 * <p>What it does not do: the secret is shared by the whole job, so any member could claim any
 * identity (members are trusted); frames after the handshake are not protected against a
 * man-in-the-middle who can rewrite the TCP stream unless the connection runs under TLS
 * ({@link TransportOptions#withTls}, with this handshake inside it); see docs/security.md.
 */
final class Handshake {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] SERVER_ROLE = "canopy handshake server".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLIENT_ROLE = "canopy handshake client".getBytes(StandardCharsets.US_ASCII);

    private final byte[] key;
    private final long job;
    private final PeerIdentity self;

    Handshake(TransportSecurity security, PeerIdentity self) {
        this.key = security.secret().derive("canopy/transport/handshake/v" + Hello.VERSION + "/" + security.job().name());
        this.job = security.job().frameKey();
        this.self = self;
    }

    long job() {
        return job;
    }

    PeerIdentity self() {
        return self;
    }

    /**
     * Loads and seeds the JVM's crypto (a first use can take a good part of a second on a loaded
     * machine); call it off the event loop before the first handshake.
     */
    static void prepareCrypto() {
        JobSecret.hmac(nonce(), nonce());
    }

    static byte[] nonce() {
        byte[] nonce = new byte[Hello.NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    /** The server's proof for a client that said {@code hello}, answered with {@code serverNonce}. */
    byte[] serverProof(Hello.ClientHello hello, byte[] serverNonce) {
        return proof(SERVER_ROLE, hello.nonce(), serverNonce, hello.identity(), self);
    }

    /** Whether the server that answered our {@code clientNonce} with {@code hello} knows the secret. */
    boolean serverProofValid(byte[] clientNonce, Hello.ServerHello hello) {
        return MessageDigest.isEqual(hello.proof(), proof(SERVER_ROLE, clientNonce, hello.nonce(), self, hello.identity()));
    }

    /** Our proof, as the client, for the server that answered {@code clientNonce} with {@code hello}. */
    byte[] clientProof(byte[] clientNonce, Hello.ServerHello hello) {
        return proof(CLIENT_ROLE, clientNonce, hello.nonce(), self, hello.identity());
    }

    /** Whether the client that said {@code hello}, answered with {@code serverNonce}, sent a valid {@code proof}. */
    boolean clientProofValid(Hello.ClientHello hello, byte[] serverNonce, Hello.ClientProof proof) {
        return MessageDigest.isEqual(proof.proof(), proof(CLIENT_ROLE, hello.nonce(), serverNonce, hello.identity(), self));
    }

    private byte[] proof(byte[] role, byte[] clientNonce, byte[] serverNonce, PeerIdentity client, PeerIdentity server) {
        Buffer input = Buffer.buffer(role.length + 9 + 2 * Hello.NONCE_BYTES + 4 + client.encoded().length
                        + server.encoded().length)
                .appendBytes(role)
                .appendUnsignedByte((short) Hello.VERSION)
                .appendLong(job)
                .appendBytes(clientNonce)
                .appendBytes(serverNonce)
                .appendUnsignedShort(client.encoded().length)
                .appendBytes(client.encoded())
                .appendUnsignedShort(server.encoded().length)
                .appendBytes(server.encoded());
        return JobSecret.hmac(key, input.getBytes());
    }
}
