package dev.canopy.collectives.reduce;

import dev.canopy.collectives.data.ElementType;
import io.vertx.core.buffer.Buffer;
import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;

/**
 * MPI's predefined reductions. Arithmetic and comparison operators apply to every plain element
 * type; logical and bitwise ones to integral types only; {@link #MINLOC} and {@link #MAXLOC} to the
 * (value, index) types, keeping the lowest index on ties.
 */
public enum BuiltInOp implements ReduceOp {
    SUM {
        @Override
        public Buffer combine(ElementType type, Buffer left, Buffer right) {
            return arithmetic(type, left, right, Long::sum, Double::sum);
        }
    },
    PROD {
        @Override
        public Buffer combine(ElementType type, Buffer left, Buffer right) {
            return arithmetic(type, left, right, (a, b) -> a * b, (a, b) -> a * b);
        }
    },
    MIN {
        @Override
        public Buffer combine(ElementType type, Buffer left, Buffer right) {
            return arithmetic(type, left, right, Math::min, Math::min);
        }
    },
    MAX {
        @Override
        public Buffer combine(ElementType type, Buffer left, Buffer right) {
            return arithmetic(type, left, right, Math::max, Math::max);
        }
    },
    LAND {
        @Override
        public Buffer combine(ElementType type, Buffer left, Buffer right) {
            return ElementwiseKernel.integral(type, left, right, (a, b) -> a != 0 && b != 0 ? 1 : 0);
        }
    },
    LOR {
        @Override
        public Buffer combine(ElementType type, Buffer left, Buffer right) {
            return ElementwiseKernel.integral(type, left, right, (a, b) -> a != 0 || b != 0 ? 1 : 0);
        }
    },
    BAND {
        @Override
        public Buffer combine(ElementType type, Buffer left, Buffer right) {
            return ElementwiseKernel.integral(type, left, right, (a, b) -> a & b);
        }
    },
    BOR {
        @Override
        public Buffer combine(ElementType type, Buffer left, Buffer right) {
            return ElementwiseKernel.integral(type, left, right, (a, b) -> a | b);
        }
    },
    BXOR {
        @Override
        public Buffer combine(ElementType type, Buffer left, Buffer right) {
            return ElementwiseKernel.integral(type, left, right, (a, b) -> a ^ b);
        }
    },
    MINLOC {
        @Override
        public Buffer combine(ElementType type, Buffer left, Buffer right) {
            return ElementwiseKernel.pairs(type, left, right,
                    (comparison, leftIndex, rightIndex) -> comparison < 0 || comparison == 0 && rightIndex < leftIndex);
        }
    },
    MAXLOC {
        @Override
        public Buffer combine(ElementType type, Buffer left, Buffer right) {
            return ElementwiseKernel.pairs(type, left, right,
                    (comparison, leftIndex, rightIndex) -> comparison > 0 || comparison == 0 && rightIndex < leftIndex);
        }
    };

    @Override
    public Commutativity commutativity() {
        return Commutativity.COMMUTATIVE;
    }

    @Override
    public boolean elementwise() {
        return true;
    }

    private static Buffer arithmetic(ElementType type, Buffer left, Buffer right,
            LongBinaryOperator integral, DoubleBinaryOperator floating) {
        return type.kind() == ElementType.ValueKind.INTEGRAL
                ? ElementwiseKernel.integral(type, left, right, integral)
                : ElementwiseKernel.floating(type, left, right, floating);
    }
}
