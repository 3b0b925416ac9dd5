package dev.canopy.topology.internal.hierarchy;

import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.tree.Tree;

/**
 * The tree of one group of one level: its nodes are the coordinators of the group's units (one per
 * group of the next finer level, or every process at host level), rooted at the group's coordinator.
 *
 * @param groupKey the group's {@link dev.canopy.gridconfig.Coordinates#groupKey(Level)}
 */
public record GroupTree(Level level, String groupKey, Tree tree) {
}
