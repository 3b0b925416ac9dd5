package dev.canopy.dynamic;

/**
 * Where a group's ranks go in {@link InterCommunicator#merge}: MPI's {@code high} flag. The group that passes
 * {@link #LOW} comes first; when both pass the same, the accepting group comes first.
 */
public enum MergeOrder {
    LOW,
    HIGH
}
