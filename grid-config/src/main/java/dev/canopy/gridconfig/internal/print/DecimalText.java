package dev.canopy.gridconfig.internal.print;

import java.math.BigDecimal;

/** Writes numbers the way level files do: shortest exact decimal, no exponent, no trailing zeros ({@code 2}, {@code 0.05}). */
public final class DecimalText {

    private DecimalText() {
    }

    /** The shortest plain decimal that reads back as exactly {@code value}; {@code value} must be finite. */
    public static String of(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
