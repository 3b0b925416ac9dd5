package dev.canopy.dynamic;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import dev.canopy.core.security.JobSecret;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The exchange over the socket of {@link DynamicProcesses#join}, MPI_Comm_join: two processes that already share
 * a connected socket agree on an inter-communicator key and tell each other their inter-communicator addresses.
 * Each side writes before it reads (both messages are small enough for any socket buffer), so neither has to
 * speak first:
 * <pre>
 * KEYS     "CJN1", an X25519 public key (X.509 encoding, {@value #PUBLIC_KEY_BYTES} bytes)
 * RECORD   length (4 bytes, at most {@value #MAX_RECORD_BYTES}), the group record (JSON, one member),
 *          HMAC-SHA-256 of the side's name and the record under the join's key
 * </pre>
 * The side with the smaller public key is the accepting one. The key is HMAC-SHA-256 of both public keys under
 * the X25519 shared secret, so someone who only reads the socket learns nothing that lets them into the
 * inter-communicator; the socket itself is trusted as the user trusted it by connecting it (someone who can
 * rewrite it can be the other end, as with MPI). Exactly the bytes above are read and written: afterwards the
 * socket is where it was, open, for the caller to use or close.
 *
 * <p>Blocking: runs on a worker thread.
 */
final class SocketJoin {

    static final int PUBLIC_KEY_BYTES = EphemeralKey.PUBLIC_KEY_BYTES;
    static final int MAX_RECORD_BYTES = 16 * 1024;
    private static final byte[] MAGIC = "CJN1".getBytes(StandardCharsets.US_ASCII);
    private static final String KEY_LABEL = "canopy/join/v1";
    private static final String RECORD_MAC_LABEL = "canopy/join/record/v1";

    private final Socket socket;
    private final long deadlineNanos;
    private EphemeralKey keys;
    private byte[] joinKey;
    private Side side;

    private SocketJoin(Socket socket, Duration timeout) {
        this.socket = socket;
        this.deadlineNanos = System.nanoTime() + timeout.toNanos();
    }

    /** Refuses a socket that cannot carry the exchange, naming why. */
    static SocketJoin over(Socket socket, Duration timeout) {
        if (socket == null || !socket.isConnected() || socket.isClosed() || socket.isInputShutdown()
                || socket.isOutputShutdown()) {
            throw new IllegalArgumentException("join: the socket " + socket + " is not a connected, open socket;"
                    + " give join a socket connected to the other process (both call join with their end)");
        }
        return new SocketJoin(socket, timeout);
    }

    /** Step one: exchanges public keys; afterwards {@link #side()} and {@link #key()} are known. */
    void agree() {
        keys = EphemeralKey.generate(); // here, on a worker: the first use loads the provider
        byte[] mine = keys.publicKey();
        byte[] theirs = io("exchange keys", (in, out) -> {
            out.write(MAGIC);
            out.write(mine);
            out.flush();
            byte[] magic = new byte[MAGIC.length];
            in.readFully(magic);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new IllegalStateException("the other end of the socket does not speak the join protocol (it sent "
                        + HexFormat.of().formatHex(magic) + ", not CJN1): is it calling DynamicProcesses.join too?");
            }
            byte[] key = new byte[PUBLIC_KEY_BYTES];
            in.readFully(key);
            return key;
        });
        int order = Arrays.compareUnsigned(mine, theirs);
        if (order == 0) {
            throw new IllegalStateException("join: the other end of the socket sent this process's own key back (is"
                    + " the socket connected to itself, or to an echo?)");
        }
        side = order < 0 ? Side.ACCEPT : Side.CONNECT;
        joinKey = keys.agree(theirs, side, KEY_LABEL, "join");
    }

    Side side() {
        return side;
    }

    /** The inter-communicator's key: keys the handshake of its connections. */
    JobSecret key() {
        return JobSecret.of(joinKey);
    }

    /** The inter-communicator's job name, the same at both ends and not guessable without the key. */
    String job() {
        return EphemeralKey.jobName("ij-", joinKey);
    }

    /** Step two: sends this process's record and returns the other's, checked field by field and by its MAC. */
    GroupRecord exchange(GroupRecord mine) {
        byte[] record = mine.toJson().encode().getBytes(StandardCharsets.UTF_8);
        byte[] macKey = JobSecret.of(joinKey).derive(RECORD_MAC_LABEL);
        return io("exchange addresses", (in, out) -> {
            out.writeInt(record.length);
            out.write(record);
            out.write(mac(macKey, side, record));
            out.flush();
            int length = in.readInt();
            if (length <= 0 || length > MAX_RECORD_BYTES) {
                throw new IllegalStateException("join: the other end announced a record of " + length
                        + " bytes, not 1 to " + MAX_RECORD_BYTES);
            }
            byte[] theirs = new byte[length];
            in.readFully(theirs);
            byte[] mac = new byte[32];
            in.readFully(mac);
            if (!MessageDigest.isEqual(mac, mac(macKey, side.other(), theirs))) {
                throw new IllegalStateException("join: the other end's record does not carry the join key's MAC"
                        + " (rewritten on the way, or not from the process that sent the key)");
            }
            GroupRecord other = GroupRecord.fromJson(ZnodeJson.parse(theirs, "the record sent over the join socket"));
            if (other.size() != 1) {
                throw new MalformedZnodeException("the record sent over the join socket", "lists " + other.size()
                        + " members; a join is between two processes");
            }
            return other;
        });
    }

    private static byte[] mac(byte[] key, Side sender, byte[] record) {
        byte[] data = new byte[record.length + 1];
        data[0] = (byte) sender.ordinal();
        System.arraycopy(record, 0, data, 1, record.length);
        return JobSecret.hmac(key, data);
    }

    /** Runs one step with the socket's read timeout set to what is left of the deadline, then restores it. */
    private <T> T io(String step, Step<T> body) {
        int previous = -1;
        try {
            previous = socket.getSoTimeout();
            long left = Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000);
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
            // Unbuffered on the way in: exactly the exchange's bytes are read, nothing of what follows.
            return body.run(new DataInputStream(socket.getInputStream()),
                    new DataOutputStream(new BufferedOutputStream(socket.getOutputStream())));
        } catch (SocketTimeoutException e) {
            throw new DynamicTimeoutException("join: the other end of the socket did not " + step
                    + " within the timeout (DynamicOptions.timeout): is it calling DynamicProcesses.join too?");
        } catch (IOException e) {
            throw new IllegalStateException("join: could not " + step + " over the socket: " + e
                    + " (did the other end close it?)", e);
        } finally {
            if (previous >= 0) {
                try {
                    socket.setSoTimeout(previous);
                } catch (IOException closed) {
                    // the socket closed meanwhile; the step's own failure says so
                }
            }
        }
    }

    @FunctionalInterface
    private interface Step<T> {
        T run(DataInputStream in, DataOutputStream out) throws IOException;
    }
}
