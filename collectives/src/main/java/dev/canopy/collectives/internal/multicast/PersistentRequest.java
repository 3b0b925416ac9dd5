package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.internal.multicast.PersistentInit.Agreed;
import dev.canopy.collectives.internal.multicast.PersistentInit.Kind;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A persistent collective in MPI-4 form ({@code Collectives.bcastInit}, {@code scatterInit}, {@code scattervInit}):
 * set up once, collectively (the members' arguments checked to match, the scatterv counts sent to every member,
 * the carrier chosen), then {@link #start} as many times as wanted, each start one collective, and
 * {@link #close}.
 *
 * <p>Each start is one broadcast on the communicator's {@code BroadcastPath} (multicast inside the LAN or cluster
 * groups where the level file asks for it) of the root's data behind the request's fingerprint
 * ({@link PersistentFrame}, 16 bytes; no counts: every member knows them from the init), and every member takes
 * its slice. A scatter or scatterv whose pieces the path would not multicast ({@link ScatterCarrierChoice},
 * decided at init) runs as the plain scatter instead.
 *
 * <p>Every member must start the request in the same place of its sequence of collectives, as for any
 * collective; the request holds nothing but its agreed arguments, so {@link #close} only stops later starts.
 */
public final class PersistentRequest implements AutoCloseable {

    private final Collectives collectives;
    private final Agreed agreed;
    private final boolean packed;
    private final int[] offsets; // byte offset of each rank's piece in the root's data
    private final int totalBytes;
    private final AtomicBoolean closed = new AtomicBoolean();

    private PersistentRequest(Collectives collectives, Agreed agreed) {
        this.collectives = collectives;
        this.agreed = agreed;
        int ranks = collectives.size();
        int[] pieces = switch (agreed.kind()) {
            case BCAST -> new int[] {agreed.counts()[0]};
            case SCATTER -> filled(ranks, agreed.counts()[0]);
            case SCATTERV -> agreed.counts();
        };
        this.offsets = new int[pieces.length + 1];
        long total = 0;
        int largest = 0;
        for (int i = 0; i < pieces.length; i++) {
            offsets[i] = (int) total;
            total += pieces[i];
            largest = Math.max(largest, pieces[i]);
        }
        if (total > Integer.MAX_VALUE - PersistentFrame.HEADER_BYTES - 8) {
            throw new IllegalArgumentException(describe(agreed) + ": " + total + " bytes in all do not fit one message");
        }
        offsets[pieces.length] = (int) total;
        this.totalBytes = (int) total;
        this.packed = agreed.kind() == Kind.BCAST || collectives.broadcastPath().packsScatter(largest, ranks);
    }

    /** See {@code Collectives.bcastInit}. */
    public static Future<PersistentRequest> bcastInit(Collectives collectives, int bytes, int root) {
        return init(collectives, Kind.BCAST, root, new int[] {bytes});
    }

    /** See {@code Collectives.scatterInit}. */
    public static Future<PersistentRequest> scatterInit(Collectives collectives, int bytesPerRank, int root) {
        return init(collectives, Kind.SCATTER, root, new int[] {bytesPerRank});
    }

    /** See {@code Collectives.scattervInit}. */
    public static Future<PersistentRequest> scattervInit(Collectives collectives, int[] counts, int root) {
        return init(collectives, Kind.SCATTERV, root, counts == null ? null : counts.clone());
    }

    /**
     * Checks the root's arguments here, then agrees on them with every member (one collective, started at once).
     * Another member's arguments are not checked alone, so that it still joins the agreement and every member
     * fails with the mismatch instead of waiting for it.
     */
    private static Future<PersistentRequest> init(Collectives collectives, Kind kind, int root, int[] counts) {
        int size = collectives.size();
        if (root < 0 || root >= size) {
            throw new IllegalArgumentException(kind.call + ": root " + root + " is not a rank of this " + size
                    + "-member communicator");
        }
        boolean isRoot = collectives.rank() == root;
        if (isRoot && counts != null) {
            long total = 0;
            for (int count : counts) {
                if (count < 0) {
                    throw new IllegalArgumentException(kind.call + ": negative count " + count);
                }
                total += count;
            }
            long all = kind == Kind.SCATTER ? total * size : total;
            if (all > Integer.MAX_VALUE - PersistentFrame.HEADER_BYTES - 8) {
                throw new IllegalArgumentException(kind.call + ": " + all + " bytes in all do not fit one message");
            }
            if (kind == Kind.SCATTERV && counts.length != size) {
                throw new IllegalArgumentException("scattervInit needs one count per rank (" + size + "), got "
                        + counts.length);
            }
        } else if (counts == null && (kind != Kind.SCATTERV || isRoot)) {
            throw new IllegalArgumentException(kind.call + " at rank " + collectives.rank() + " needs its counts");
        }
        return PersistentInit.agree(collectives, kind, root, counts)
                .map(agreed -> new PersistentRequest(collectives, agreed));
    }

    /**
     * Starts the collective once more: {@code data} at the root (the message for bcast, every rank's piece back to
     * back in rank order for scatter and scatterv, of the length fixed at init), ignored elsewhere. The future
     * completes with this member's message or piece; when the root's data has the wrong length, it fails on every
     * member (at the root with an IllegalArgumentException naming both lengths). Throws IllegalStateException
     * after {@link #close}.
     */
    public Future<Buffer> start(Buffer data) {
        if (closed.get()) {
            throw new IllegalStateException(describe(agreed) + " was closed; init a new persistent request to start it"
                    + " again");
        }
        boolean root = collectives.rank() == agreed.root();
        if (root && (data == null || data.length() != totalBytes)) {
            return startWrongSize(data);
        }
        if (!packed) {
            return agreed.kind() == Kind.SCATTER
                    ? collectives.scatter(root ? data : null, agreed.counts()[0], agreed.root())
                    : collectives.scatterv(root ? pieces(data) : null, agreed.root());
        }
        return collectives.bcast(root ? PersistentFrame.wrap(agreed.fingerprint(), data) : null, agreed.root())
                .map(message -> {
                    Buffer all = PersistentFrame.unwrap(message, agreed.fingerprint(), totalBytes, describe(agreed));
                    // bcast: a view of this member's own received buffer; scatter: a copy of the piece only.
                    return agreed.kind() == Kind.BCAST ? all
                            : all.getBuffer(offsets[collectives.rank()], offsets[collectives.rank() + 1]);
                });
    }

    /**
     * The root was given the wrong number of bytes: the collective still starts, so that the other members (already
     * waiting for it) fail too instead of waiting for ever (they reject the wrong length, or the plain scatter's
     * checks abort it), and the root's future fails naming the fix.
     */
    private Future<Buffer> startWrongSize(Buffer data) {
        IllegalArgumentException wrong = new IllegalArgumentException(describe(agreed) + " carries " + totalBytes
                + " bytes per start; the root gave " + (data == null ? "none" : data.length()));
        Buffer given = data == null ? Buffer.buffer() : data;
        Future<Buffer> started;
        if (packed) {
            started = collectives.bcast(PersistentFrame.wrap(agreed.fingerprint(), given), agreed.root());
        } else if (agreed.kind() == Kind.SCATTER) {
            started = collectives.scatter(given, agreed.counts()[0], agreed.root());
        } else {
            started = collectives.scatterv(List.of(), agreed.root());
        }
        return started.transform(ignored -> Future.failedFuture(wrong));
    }

    /** {@link #start(Buffer)} at a member other than the root. */
    public Future<Buffer> start() {
        return start(null);
    }

    /** Whether each start is one broadcast of the whole data on the path (otherwise the plain tree scatter). */
    public boolean broadcastsEachStart() {
        return packed;
    }

    /** No more starts: later ones fail at once. Starts already under way complete. Idempotent. */
    @Override
    public void close() {
        closed.set(true);
    }

    @Override
    public String toString() {
        return describe(agreed) + (packed ? ", one broadcast per start" : ", by the tree scatter");
    }

    private List<Buffer> pieces(Buffer data) {
        List<Buffer> pieces = new ArrayList<>(offsets.length - 1);
        for (int rank = 0; rank + 1 < offsets.length; rank++) {
            pieces.add(data.getBuffer(offsets[rank], offsets[rank + 1]));
        }
        return pieces;
    }

    private static String describe(Agreed agreed) {
        return "persistent " + agreed.kind().name().toLowerCase(Locale.ROOT) + " from root " + agreed.root();
    }

    private static int[] filled(int length, int value) {
        int[] values = new int[length];
        Arrays.fill(values, value);
        return values;
    }
}
