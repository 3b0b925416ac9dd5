package dev.canopy.collectives.reduce;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.data.MalformedMessageException;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a subtree of a reduction has combined so far: runs of consecutive ranks, each reduced to one
 * vector. A commutative operator folds everything into one run; a rank-ordered one can only join
 * runs that touch (ranks 3..5 with 6..9), so a tree whose subtrees are not rank intervals still
 * produces the rank-ordered result. A commutative run is named by the lowest and highest rank
 * folded into it (it may skip ranks between them that another subtree holds). Immutable.
 *
 * <p>Wire form, big-endian: {@code int runCount}, then per run {@code int firstRank, int lastRank,
 * int length, bytes}:
 *
 * <pre>
 *  offset  size    field
 *       0     4    runCount     1 .. (length - 4) / 12
 *       4     4    firstRank    >= 0, above the previous run's lastRank
 *       8     4    lastRank     >= firstRank
 *      12     4    length       bytes of the run's value, 0 .. what is left
 *      16     length  value
 *     ...          the next run; nothing after the last
 * </pre>
 *
 * {@link #decode} checks all of it and throws {@link MalformedMessageException};
 * {@link #requireSubtree} checks that the runs are what a given subtree sends.
 */
public final class PartialReduction {

    /** Ranks {@code firstRank..lastRank} reduced to {@code value}. */
    public record Run(int firstRank, int lastRank, Buffer value) {
    }

    /** {@code int firstRank, int lastRank, int length} in front of each run's bytes. */
    private static final int RUN_HEADER_BYTES = 3 * Integer.BYTES;

    private final List<Run> runs;

    private PartialReduction(List<Run> runs) {
        this.runs = List.copyOf(runs);
    }

    public static PartialReduction of(int rank, Buffer value) {
        return new PartialReduction(List.of(new Run(rank, rank, value)));
    }

    public List<Run> runs() {
        return runs;
    }

    /** Merges another subtree's partial result into this one, combining whatever the operator allows. */
    public PartialReduction merge(PartialReduction other, ReduceOp op, ElementType type) {
        List<Run> all = new ArrayList<>(runs);
        all.addAll(other.runs);
        all.sort((a, b) -> Integer.compare(a.firstRank(), b.firstRank()));
        List<Run> merged = new ArrayList<>();
        for (Run run : all) {
            Run last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && joinable(last, run, op)) {
                // max: a commutative join may fold in a run that lies inside the other's span
                merged.set(merged.size() - 1, new Run(last.firstRank(), Math.max(last.lastRank(), run.lastRank()),
                        op.combine(type, last.value(), run.value())));
            } else {
                merged.add(run);
            }
        }
        return new PartialReduction(merged);
    }

    /**
     * The final value; every rank must be folded into one run by now. Anything else means the tree
     * did not span the communicator, a bug reported with the runs that were left. A value that
     * {@link #decode} read and no operator combined since is a slice of the decoded buffer: copy it
     * to keep it beyond that buffer or to append to it.
     */
    public Buffer result() {
        if (runs.size() != 1) {
            throw new IllegalStateException("reduction ended with " + runs.size()
                    + " separate rank runs " + describeRuns() + ": the tree did not cover every rank");
        }
        return runs.get(0).value();
    }

    /** Bytes of the wire form. */
    public int encodedLength() {
        int length = Integer.BYTES;
        for (Run run : runs) {
            length += RUN_HEADER_BYTES + run.value().length();
        }
        return length;
    }

    /** The wire form, in one buffer of exactly {@link #encodedLength()} bytes. */
    public Buffer encode() {
        return encodeTo(Buffer.buffer(encodedLength()));
    }

    /**
     * Appends the wire form to {@code out} and returns {@code out}; give it room for
     * {@link #encodedLength()} more bytes, or it grows.
     */
    public Buffer encodeTo(Buffer out) {
        out.appendInt(runs.size());
        for (Run run : runs) {
            out.appendInt(run.firstRank()).appendInt(run.lastRank()).appendInt(run.value().length())
                    .appendBuffer(run.value());
        }
        return out;
    }

    /**
     * Reads the wire form without copying the values: each run's value is a {@link Buffer#slice} of
     * {@code buffer}. That suits a buffer received for this purpose, which nobody changes afterwards;
     * the values are only read (operators must not modify their arguments) or copied on: into the
     * next encoding, or into the result. A caller that will change {@code buffer} must decode a copy.
     */
    public static PartialReduction decode(Buffer buffer) {
        if (buffer.length() < Integer.BYTES) {
            throw new MalformedMessageException("partial reduction of " + buffer.length() + " bytes lacks its run count");
        }
        int count = buffer.getInt(0);
        if (count < 1 || count > (buffer.length() - Integer.BYTES) / RUN_HEADER_BYTES) {
            throw new MalformedMessageException("partial reduction claims " + count + " runs in " + buffer.length()
                    + " bytes (at least one run, each at least " + RUN_HEADER_BYTES + " bytes)");
        }
        List<Run> runs = new ArrayList<>(count);
        int offset = Integer.BYTES;
        int previousLast = -1;
        for (int i = 0; i < count; i++) {
            if (RUN_HEADER_BYTES > buffer.length() - offset) {
                throw new MalformedMessageException("partial reduction ends after " + i + " of " + count + " runs");
            }
            int first = buffer.getInt(offset);
            int last = buffer.getInt(offset + Integer.BYTES);
            int length = buffer.getInt(offset + 2 * Integer.BYTES);
            offset += RUN_HEADER_BYTES;
            if (first <= previousLast || last < first) {
                throw new MalformedMessageException("run " + i + " covers ranks " + first + ".." + last + " after rank "
                        + previousLast + "; runs are ascending, disjoint and non-empty, ranks >= 0");
            }
            if (length < 0 || length > buffer.length() - offset) {
                throw new MalformedMessageException("run of ranks " + first + ".." + last + " claims " + length
                        + " bytes at offset " + offset + " of " + buffer.length());
            }
            runs.add(new Run(first, last, buffer.slice(offset, offset + length)));
            offset += length;
            previousLast = last;
        }
        if (offset != buffer.length()) {
            throw new MalformedMessageException((buffer.length() - offset) + " bytes after the last of " + count
                    + " runs");
        }
        return new PartialReduction(Collections.unmodifiableList(runs));
    }

    /**
     * This partial result, if it is what the subtree of ranks {@code subtree} (ascending) sends: with
     * a commutative operator one run from its lowest to its highest rank; with a rank-ordered one,
     * runs covering exactly its ranks. With {@code valueBytes >= 0}, every value must be that long
     * (element-wise operators keep the segment's length). Otherwise a {@link MalformedMessageException}.
     */
    public PartialReduction requireSubtree(int[] subtree, ReduceOp.Commutativity commutativity, int valueBytes) {
        for (Run run : runs) {
            if (valueBytes >= 0 && run.value().length() != valueBytes) {
                throw new MalformedMessageException("the value of ranks " + run.firstRank() + ".." + run.lastRank()
                        + " has " + run.value().length() + " bytes where this segment has " + valueBytes);
            }
        }
        boolean fits = commutativity == ReduceOp.Commutativity.COMMUTATIVE
                ? runs.size() == 1 && runs.get(0).firstRank() == subtree[0]
                        && runs.get(0).lastRank() == subtree[subtree.length - 1]
                : coversExactly(subtree);
        if (!fits) {
            throw new MalformedMessageException("runs " + describeRuns() + " are not what a subtree of "
                    + subtree.length + " ranks from " + subtree[0] + " to " + subtree[subtree.length - 1] + " sends");
        }
        return this;
    }

    /** Whether the runs (ascending, disjoint) cover exactly the ascending ranks of {@code subtree}. */
    private boolean coversExactly(int[] subtree) {
        int next = 0;
        for (Run run : runs) {
            for (long rank = run.firstRank(); rank <= run.lastRank(); rank++) {
                if (next == subtree.length || subtree[next] != rank) {
                    return false;
                }
                next++;
            }
        }
        return next == subtree.length;
    }

    private static boolean joinable(Run left, Run right, ReduceOp op) {
        return op.commutativity() == ReduceOp.Commutativity.COMMUTATIVE || left.lastRank() + 1 == right.firstRank();
    }

    private String describeRuns() {
        StringBuilder text = new StringBuilder();
        for (Run run : runs.subList(0, Math.min(runs.size(), 16))) {
            text.append('[').append(run.firstRank()).append("..").append(run.lastRank()).append(']');
        }
        return runs.size() > 16 ? text + "... (" + runs.size() + " runs)" : text.toString();
    }
}
