package dev.canopy.collectives.reduce;

import dev.canopy.collectives.data.ElementType;
import io.vertx.core.buffer.Buffer;
import java.util.function.BinaryOperator;
import java.util.function.DoubleBinaryOperator;
import java.util.function.IntBinaryOperator;
import java.util.function.LongBinaryOperator;

/**
 * An associative operator that reductions apply element-wise. {@code combine(type, left, right)}
 * gets the contribution of lower ranks as {@code left}; operators that are not commutative are
 * therefore applied in rank order, as MPI requires.
 *
 * <p>The built-in operators are the constants of {@link BuiltInOp}; the factories below make
 * user-defined ones.
 */
public interface ReduceOp {

    /** Whether the engine may combine contributions in any order or must keep rank order. */
    enum Commutativity { COMMUTATIVE, RANK_ORDERED }

    String name();

    Commutativity commutativity();

    /**
     * Whether {@code combine} works on each element alone, so a long vector may be reduced in
     * segments that are pipelined up the tree. Operators on whole buffers (matrix products, say)
     * are not, and are reduced in one piece.
     */
    default boolean elementwise() {
        return false;
    }

    /**
     * Combines two equally long vectors of {@code type} elements. A length mismatch or an operator
     * that does not apply to {@code type} is an {@link IllegalArgumentException} naming both.
     */
    Buffer combine(ElementType type, Buffer left, Buffer right);

    /** A user-defined associative operator on {@link ElementType#INT} elements. */
    static ReduceOp ofInts(String name, IntBinaryOperator operator) {
        return new UserDefinedOp(name, ElementType.INT,
                (left, right) -> ElementwiseKernel.integral(ElementType.INT, left, right,
                        (a, b) -> operator.applyAsInt((int) a, (int) b)));
    }

    /** A user-defined associative operator on {@link ElementType#LONG} elements. */
    static ReduceOp ofLongs(String name, LongBinaryOperator operator) {
        return new UserDefinedOp(name, ElementType.LONG,
                (left, right) -> ElementwiseKernel.integral(ElementType.LONG, left, right, operator));
    }

    /** A user-defined associative operator on {@link ElementType#DOUBLE} elements. */
    static ReduceOp ofDoubles(String name, DoubleBinaryOperator operator) {
        return new UserDefinedOp(name, ElementType.DOUBLE,
                (left, right) -> ElementwiseKernel.floating(ElementType.DOUBLE, left, right, operator));
    }

    /**
     * A user-defined associative operator on whole buffers of any layout, e.g. matrix products.
     * It is applied in rank order; it must not modify its arguments.
     */
    static ReduceOp ofBuffers(String name, BinaryOperator<Buffer> operator) {
        return new UserDefinedOp(name, null, operator);
    }
}
