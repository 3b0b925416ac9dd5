package dev.canopy.gridconfig.internal.validate;

/** One {@code (key value)} item of a pair list such as {@code levels} or {@code environment}. */
record Pair(Resolved.Text key, Resolved.Text value) {
}
