package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.CollectiveMismatchException;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.data.MalformedMessageException;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.Arrays;
import java.util.List;

/**
 * The collective set-up of a persistent request: every member contributes what it was asked to set up (one
 * allgatherv, the only collective of the init, started at once so it keeps its place in the communicator's
 * order), and every member checks all of them against the root's, so all reach the same verdict: the agreed
 * request, or a {@link CollectiveMismatchException} naming the first member whose arguments differ.
 *
 * <p>A member's contribution: {@code byte kind, int root, int n, int counts[n]}, with {@code n = -1} for a
 * scatterv member other than the root that leaves the counts to the root (the counts then reach every member
 * here, once: the "counts first" broadcast of scatterv is paid at init, not at every start).
 */
final class PersistentInit {

    enum Kind {
        BCAST("bcastInit"), SCATTER("scatterInit"), SCATTERV("scattervInit");

        final String call;

        Kind(String call) {
            this.call = call;
        }
    }

    /** What every member agreed on; {@code counts} as the root gave them. */
    record Agreed(Kind kind, int root, int[] counts, long fingerprint) {
    }

    private record Contribution(Kind kind, int root, int[] counts) {

        String describe() {
            return kind.call + "(" + (counts == null ? "counts from the root" : countsText()) + ", root " + root + ")";
        }

        private String countsText() {
            return switch (kind) {
                case BCAST -> counts[0] + " bytes";
                case SCATTER -> counts[0] + " bytes per rank";
                case SCATTERV -> "counts " + (counts.length <= 8 ? Arrays.toString(counts) : counts.length + " counts");
            };
        }
    }

    private PersistentInit() {
    }

    /** Starts the agreement at once; {@code counts} null only for a scatterv member other than the root. */
    static Future<Agreed> agree(Collectives collectives, Kind kind, int root, int[] counts) {
        Buffer mine = Buffer.buffer().appendByte((byte) kind.ordinal()).appendInt(root)
                .appendInt(counts == null ? -1 : counts.length);
        if (counts != null) {
            for (int count : counts) {
                mine.appendInt(count);
            }
        }
        int size = collectives.size();
        return collectives.allgatherv(mine).map(all -> verdict(all, size));
    }

    private static Agreed verdict(List<Buffer> all, int size) {
        Contribution first = decode(all.get(0), 0, size);
        int root = first.root();
        Contribution reference = decode(all.get(root), root, size);
        if (reference.counts() == null) {
            throw mismatch(root, reference, root, reference, "the root must give the counts");
        }
        for (int rank = 0; rank < all.size(); rank++) {
            Contribution other = decode(all.get(rank), rank, size);
            boolean countsMatch = other.counts() == null || Arrays.equals(other.counts(), reference.counts());
            if (other.kind() != reference.kind() || other.root() != root || !countsMatch) {
                throw mismatch(rank, other, root, reference, "every member must init the same persistent collective"
                        + " with matching arguments, in the same order");
            }
        }
        return new Agreed(reference.kind(), root, reference.counts(), fingerprint(all.get(root)));
    }

    private static CollectiveMismatchException mismatch(int rank, Contribution other, int root, Contribution reference,
            String rule) {
        return new CollectiveMismatchException("persistent request init: rank " + rank + " called " + other.describe()
                + " while rank " + root + " (the root) called " + reference.describe() + "; " + rule);
    }

    /** A contribution read from the wire, every field checked before use. */
    private static Contribution decode(Buffer bytes, int rank, int size) {
        if (bytes.length() < 9) {
            throw new MalformedMessageException("persistent init of rank " + rank + ": " + bytes.length()
                    + " bytes, shorter than the 9-byte header");
        }
        int kind = bytes.getByte(0);
        int root = bytes.getInt(1);
        int n = bytes.getInt(5);
        if (kind < 0 || kind >= Kind.values().length || root < 0 || root >= size || n < -1 || n > size
                || bytes.length() != 9 + 4L * Math.max(0, n)) {
            throw new MalformedMessageException("persistent init of rank " + rank + ": kind " + kind + ", root " + root
                    + ", " + n + " counts in " + bytes.length() + " bytes is out of range for " + size + " members");
        }
        int[] counts = null;
        if (n >= 0) {
            counts = new int[n];
            for (int i = 0; i < n; i++) {
                counts[i] = bytes.getInt(9 + 4 * i);
                if (counts[i] < 0) {
                    throw new MalformedMessageException("persistent init of rank " + rank + ": count " + i + " is "
                            + counts[i]);
                }
            }
        }
        return new Contribution(Kind.values()[kind], root, counts);
    }

    private static long fingerprint(Buffer description) {
        long hash = 0xcbf29ce484222325L; // FNV-1a 64
        for (int i = 0; i < description.length(); i++) {
            hash = (hash ^ (description.getByte(i) & 0xff)) * 0x100000001b3L;
        }
        return hash;
    }
}
