package dev.canopy.collectives.reduce;

import dev.canopy.collectives.data.ElementType;
import io.vertx.core.buffer.Buffer;

/**
 * MPI's predefined reductions. Arithmetic and comparison operators apply to every plain element
 * type; logical and bitwise ones to integral types only; {@link #MINLOC} and {@link #MAXLOC} to the
 * (value, index) types, keeping the lowest index on ties.
 */
public enum BuiltInOp implements ReduceOp {
    SUM(Arithmetic.SUM),
    PROD(Arithmetic.PROD),
    MIN(Arithmetic.MIN),
    MAX(Arithmetic.MAX),
    LAND(Arithmetic.LAND),
    LOR(Arithmetic.LOR),
    BAND(Arithmetic.BAND),
    BOR(Arithmetic.BOR),
    BXOR(Arithmetic.BXOR),
    /** Per element, the (value, index) pair with the lower value. */
    MINLOC(Arithmetic.MIN),
    /** Per element, the (value, index) pair with the higher value. */
    MAXLOC(Arithmetic.MAX);

    /** What this operator computes on a pair of values (for minloc and maxloc: which value it keeps). */
    private final Arithmetic arithmetic;

    BuiltInOp(Arithmetic arithmetic) {
        this.arithmetic = arithmetic;
    }

    @Override
    public Buffer combine(ElementType type, Buffer left, Buffer right) {
        return switch (this) {
            case MINLOC, MAXLOC -> ElementwiseKernel.pairs(type, left, right, arithmetic);
            case SUM, PROD, MIN, MAX -> type.kind() == ElementType.ValueKind.FLOATING
                    ? ElementwiseKernel.floating(type, left, right, arithmetic)
                    : ElementwiseKernel.integral(type, left, right, arithmetic);
            case LAND, LOR, BAND, BOR, BXOR -> ElementwiseKernel.integral(type, left, right, arithmetic);
        };
    }

    @Override
    public Commutativity commutativity() {
        return Commutativity.COMMUTATIVE;
    }

    @Override
    public boolean elementwise() {
        return true;
    }
}
