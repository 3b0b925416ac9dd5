package dev.canopy.collectives.reference;

import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.reduce.ReduceOp;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.Random;

/**
 * An operator, an element type it applies to, and input values for which every tree gives exactly
 * the sequential result (floating values are small integers, so sums and products are exact).
 */
public record ReductionChoice(ReduceOp op, ElementType type) {

    /**
     * Affine maps x -> a*x + b as (a, b) long pairs, composed: associative, not commutative, so it
     * shows whether the engine keeps rank order.
     */
    public static final ReduceOp AFFINE_COMPOSITION = ReduceOp.ofBuffers("affine", (first, second) -> {
        Buffer out = Buffer.buffer(first.length());
        for (int offset = 0; offset < first.length(); offset += 16) {
            long a1 = first.getLong(offset);
            long b1 = first.getLong(offset + 8);
            long a2 = second.getLong(offset);
            long b2 = second.getLong(offset + 8);
            out.appendLong(a2 * a1).appendLong(a2 * b1 + b2);
        }
        return out;
    });

    /** The rank-ordered operator on its type. */
    public static final ReductionChoice RANK_ORDERED = new ReductionChoice(AFFINE_COMPOSITION, ElementType.LONG);

    /** Every operator with each type it applies to. */
    public static List<ReductionChoice> all() {
        List<ElementType> arithmetic = List.of(ElementType.BYTE, ElementType.INT, ElementType.LONG, ElementType.FLOAT,
                ElementType.DOUBLE);
        List<ElementType> integral = List.of(ElementType.BYTE, ElementType.INT, ElementType.LONG);
        List<ElementType> pairs = List.of(ElementType.INT_INDEX, ElementType.LONG_INDEX, ElementType.FLOAT_INDEX,
                ElementType.DOUBLE_INDEX);
        java.util.ArrayList<ReductionChoice> choices = new java.util.ArrayList<>();
        for (BuiltInOp op : List.of(BuiltInOp.SUM, BuiltInOp.PROD, BuiltInOp.MIN, BuiltInOp.MAX)) {
            arithmetic.forEach(type -> choices.add(new ReductionChoice(op, type)));
        }
        for (BuiltInOp op : List.of(BuiltInOp.LAND, BuiltInOp.LOR, BuiltInOp.BAND, BuiltInOp.BOR, BuiltInOp.BXOR)) {
            integral.forEach(type -> choices.add(new ReductionChoice(op, type)));
        }
        for (BuiltInOp op : List.of(BuiltInOp.MINLOC, BuiltInOp.MAXLOC)) {
            pairs.forEach(type -> choices.add(new ReductionChoice(op, type)));
        }
        choices.add(RANK_ORDERED);
        return List.copyOf(choices);
    }

    /** Bytes of the largest whole number of elements (pairs for the affine map) within {@code bytes}. */
    public int fit(int bytes) {
        int unit = op == AFFINE_COMPOSITION ? 16 : type.size();
        return bytes / unit * unit;
    }

    /** A rank's input vector of {@code bytes} bytes. */
    public Buffer input(int rank, int bytes, Random random) {
        int unit = op == AFFINE_COMPOSITION ? 8 : type.size();
        Buffer out = Buffer.buffer(bytes);
        for (int i = 0; i < bytes / unit; i++) {
            long small = random.nextInt(3) == 0 ? -1 : random.nextInt(2) + 1;
            switch (type) {
                case BYTE -> out.appendByte((byte) random.nextInt());
                case INT -> out.appendInt(random.nextInt());
                case LONG -> out.appendLong(random.nextLong());
                case FLOAT -> out.appendFloat(small);
                case DOUBLE -> out.appendDouble(small);
                case INT_INDEX -> out.appendInt(random.nextInt(5)).appendInt(rank);
                case LONG_INDEX -> out.appendLong(random.nextInt(5)).appendInt(rank);
                case FLOAT_INDEX -> out.appendFloat(random.nextInt(5)).appendInt(rank);
                case DOUBLE_INDEX -> out.appendDouble(random.nextInt(5)).appendInt(rank);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return op.name() + "/" + type;
    }
}
