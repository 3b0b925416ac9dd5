/**
 * Canopy's pure topology algorithms: measured latencies in, hierarchies, trees and predicted
 * completion times out. No runtime, no I/O besides the CSV loader, no Vert.x, no ZooKeeper.
 *
 * <ul>
 *   <li>{@link dev.canopy.topology.internal.graph}: the latency graph (JGraphT model), its dense view and the CSV loader;</li>
 *   <li>{@link dev.canopy.topology.internal.tree}: tree builders (flat, binomial, MST, HLOT, SPT, ECEF, auto) and the
 *       LogGP-style cost model that predicts their completion;</li>
 *   <li>{@link dev.canopy.topology.internal.hierarchy}: the five-level hierarchy and hierarchical plans;</li>
 *   <li>{@link dev.canopy.topology.internal.replan}: when a plan should be replaced.</li>
 * </ul>
 */
package dev.canopy.topology.internal;
