package dev.canopy.collectives.reduce;

import dev.canopy.collectives.data.ElementType;
import io.vertx.core.buffer.Buffer;
import java.util.Objects;
import java.util.function.BinaryOperator;

/** A user's associative operator, applied in rank order (commutativity is not assumed). */
final class UserDefinedOp implements ReduceOp {

    private final String name;
    private final ElementType requiredType;
    private final BinaryOperator<Buffer> operator;

    /** {@code requiredType} null means the operator accepts buffers of any element type. */
    UserDefinedOp(String name, ElementType requiredType, BinaryOperator<Buffer> operator) {
        this.name = Objects.requireNonNull(name, "name");
        this.requiredType = requiredType;
        this.operator = Objects.requireNonNull(operator, "operator");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Commutativity commutativity() {
        return Commutativity.RANK_ORDERED;
    }

    /** The typed factories apply the operator per element; {@code ofBuffers} gets whole vectors. */
    @Override
    public boolean elementwise() {
        return requiredType != null;
    }

    @Override
    public Buffer combine(ElementType type, Buffer left, Buffer right) {
        if (requiredType != null && requiredType != type) {
            throw new IllegalArgumentException("operator '" + name + "' is defined on " + requiredType
                    + " elements, not " + type);
        }
        return operator.apply(left, right);
    }

    @Override
    public String toString() {
        return name;
    }
}
