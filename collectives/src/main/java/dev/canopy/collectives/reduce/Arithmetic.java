package dev.canopy.collectives.reduce;

import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;

/**
 * What the element loops compute for one pair of values: the arithmetic of each built-in operator,
 * and {@link #USER}, which calls a user's function. Integral values arrive widened to
 * {@code long}, floating ones to {@code double} (exact for float: a double holds every float sum
 * and product correctly rounded); the left value comes from the lower ranks.
 *
 * <p>A plain enum behind a switch rather than a function object, because {@link ElementwiseKernel}
 * applies it once per element: the switch takes the same branch for every element of a vector,
 * while a call through a functional interface becomes megamorphic once a node has run a few
 * operators, and the JIT then makes a real call per element that it cannot inline (in a prototype
 * of these loops, 1 Ki INT elements took 5 µs that way, against about 1 µs).
 */
enum Arithmetic {
    USER, SUM, PROD, MIN, MAX, LAND, LOR, BAND, BOR, BXOR;

    /** This operator on integral values; {@code user} is only called for {@link #USER}. */
    long applyToLongs(LongBinaryOperator user, long left, long right) {
        return switch (this) {
            case SUM -> left + right;
            case PROD -> left * right;
            case MIN -> Math.min(left, right);
            case MAX -> Math.max(left, right);
            case LAND -> left != 0 && right != 0 ? 1 : 0;
            case LOR -> left != 0 || right != 0 ? 1 : 0;
            case BAND -> left & right;
            case BOR -> left | right;
            case BXOR -> left ^ right;
            case USER -> user.applyAsLong(left, right);
        };
    }

    /** This operator on floating-point values; {@code user} is only called for {@link #USER}. */
    double applyToDoubles(DoubleBinaryOperator user, double left, double right) {
        return switch (this) {
            case SUM -> left + right;
            case PROD -> left * right;
            case MIN -> Math.min(left, right);
            case MAX -> Math.max(left, right);
            case USER -> user.applyAsDouble(left, right);
            default -> throw new IllegalArgumentException(this + " applies to integral values only");
        };
    }
}
