package dev.canopy.collectives.reduce;

import dev.canopy.collectives.data.ElementType;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a subtree of a reduction has combined so far: runs of consecutive ranks, each reduced to one
 * vector. A commutative operator folds everything into one run; a rank-ordered one can only join
 * runs that touch (ranks 3..5 with 6..9), so a tree whose subtrees are not rank intervals still
 * produces the rank-ordered result. Immutable.
 *
 * <p>Wire form: {@code int runCount}, then per run {@code int firstRank, int lastRank, int length,
 * bytes}.
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
                merged.set(merged.size() - 1, new Run(last.firstRank(), run.lastRank(),
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
        int count = buffer.getInt(0);
        List<Run> runs = new ArrayList<>(count);
        int offset = Integer.BYTES;
        for (int i = 0; i < count; i++) {
            int first = buffer.getInt(offset);
            int last = buffer.getInt(offset + Integer.BYTES);
            int length = buffer.getInt(offset + 2 * Integer.BYTES);
            offset += RUN_HEADER_BYTES;
            runs.add(new Run(first, last, buffer.slice(offset, offset + length)));
            offset += length;
        }
        return new PartialReduction(Collections.unmodifiableList(runs));
    }

    private static boolean joinable(Run left, Run right, ReduceOp op) {
        return op.commutativity() == ReduceOp.Commutativity.COMMUTATIVE || left.lastRank() + 1 == right.firstRank();
    }

    private String describeRuns() {
        StringBuilder text = new StringBuilder();
        for (Run run : runs) {
            text.append('[').append(run.firstRank()).append("..").append(run.lastRank()).append(']');
        }
        return text.toString();
    }
}
