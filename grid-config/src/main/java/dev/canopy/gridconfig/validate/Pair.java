package dev.canopy.gridconfig.validate;

/** One {@code (key value)} item of a pair list such as {@code levels} or {@code environment}. */
record Pair(Resolved.Text key, Resolved.Text value) {
}
