package dev.canopy.gridconfig.internal.validate;

/** The values a numeric attribute accepts. */
enum NumberRange {
    NON_NEGATIVE(">= 0"),
    POSITIVE("> 0"),
    FRACTION("between 0 and 1");

    private final String description;

    NumberRange(String description) {
        this.description = description;
    }

    boolean contains(double value) {
        return switch (this) {
            case NON_NEGATIVE -> value >= 0;
            case POSITIVE -> value > 0;
            case FRACTION -> value >= 0 && value <= 1;
        };
    }

    String description() {
        return description;
    }
}
